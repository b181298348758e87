import DoorLock
import Foundation
import Testing

/// The config's `imageSensor` section: enrollment touches and the false-match rate, each
/// refused with a message naming the key and the fix.
@Suite struct ImageSensorConfigTests {
    func section(_ json: String) throws(LockConfigError) -> LockConfig.ImageSensor {
        try LockConfig.parse(Data(json.utf8)).imageSensor
    }

    @Test func leftOutItIsEightTouchesAtOneInTenThousand() throws {
        let settings = try section("{}")
        #expect(settings.enrollCaptures == 8)
        #expect(settings.falseMatchRate == 1e-4)
    }

    @Test func ratesAreWrittenAsOneInN() throws {
        #expect(try section(#"{"imageSensor": {"falseMatchRate": "1 in 100000"}}"#).falseMatchRate == 1e-5)
        #expect(try section(#"{"imageSensor": {"falseMatchRate": "1 in 1,000"}}"#).falseMatchRate == 1e-3)
        #expect(try section(#"{"imageSensor": {"falseMatchRate": "1/50000"}}"#).falseMatchRate == 1 / 50_000)
        #expect(try section(#"{"imageSensor": {"enrollCaptures": 12}}"#).enrollCaptures == 12)
    }

    @Test func aRateOutsideTheRangeOrNotOneInNIsRefusedNamingTheForm() {
        for text in ["1 in 10", "0.0001", "2 in 1000", "1 in 1000000000", "one in ten thousand"] {
            let found = problems(#"{"imageSensor": {"falseMatchRate": "\#(text)"}}"#)
            #expect(found.count == 1, "\(text)")
            #expect(found.first?.contains("imageSensor.falseMatchRate") == true)
            #expect(found.first?.contains("1 in N") == true)
        }
    }

    @Test func touchesOutsideFiveToFifteenAndUnknownKeysAreRefused() {
        #expect(problems(#"{"imageSensor": {"enrollCaptures": 4}}"#).first?.contains("imageSensor.enrollCaptures") == true)
        #expect(problems(#"{"imageSensor": {"enrollCaptures": 16}}"#).count == 1)
        #expect(problems(#"{"imageSensor": {"captures": 8}}"#).first?.contains("captures") == true)
    }
}
