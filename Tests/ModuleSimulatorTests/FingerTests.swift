import FingerprintProtocol
import ModuleSimulator
import Testing

/// The pure parts: fingers, char files, scores, the sensor script, control lines, timing.
@Suite struct FingerTests {
    @Test func sameFingerMatchesAndStrangersDoNot() {
        var random = SeededRandom(seed: 42)
        let names = (0..<12).map { "finger-\($0)" }
        let fingers = names.map(VirtualFinger.init(name:))
        #expect(VirtualFinger(name: "finger-3").minutiae == fingers[3].minutiae)
        var sameScores: [Int] = []
        for finger in fingers {
            for _ in 0..<10 {
                let a = finger.capture(quality: .good, using: &random), b = finger.capture(quality: .good, using: &random)
                sameScores.append(Matcher.score(a, against: b))
            }
        }
        #expect(sameScores.allSatisfy { $0 >= Matcher.threshold(securityLevel: 5) && $0 <= 300 })
        #expect(Set(sameScores).count > 5, "scores should vary from capture to capture")
        for (i, first) in fingers.enumerated() {
            for second in fingers[(i + 1)...] {
                let score = Matcher.score(first.capture(quality: .good, using: &random), against: second.minutiae)
                #expect(score < Matcher.threshold(securityLevel: 1), "\(first.name) vs \(second.name): \(score)")
            }
        }
    }

    @Test func charFileRoundTripAndCorruption() {
        var random = SeededRandom(seed: 7)
        let seen = VirtualFinger(name: "x").capture(quality: .good, using: &random)
        var file = CharFile.encode(seen, quality: 0x55, size: 256)
        #expect(file.prefix(2) == [0x03, 0x01])
        #expect(Int(file[3]) == seen.count)
        #expect(CharFile.decode(file[...]) == seen)
        file[100] ^= 1
        #expect(CharFile.decode(file[...]) == nil)
    }

    @Test func touchScriptWaitsForTheHostToSeeTheLift() {
        var sensor = Sensor()
        sensor.touch(Placement(name: "a"), times: 2)
        #expect(sensor.capture() != nil)
        #expect(sensor.capture() == nil)  // lifted, host sees it
        #expect(sensor.capture() != nil)
        #expect(sensor.capture() == nil)
        #expect(sensor.capture() == nil)
        #expect(sensor.script == nil)
        sensor.place(Placement(name: "b"))
        #expect(sensor.capture() != nil && sensor.capture() != nil)
        sensor.lift()
        #expect(sensor.capture() == nil)
    }

    @Test func controlLines() throws {
        #expect(try ControlCommand(line: "place alice poor") == .place(name: "alice", quality: .poor))
        #expect(try ControlCommand(line: "touch bob 3") == .touch(name: "bob", quality: .good, times: 3))
        #expect(try ControlCommand(line: "fault delay 25") == .fault(.delay(milliseconds: 25)))
        #expect(try ControlCommand(line: "power-cycle") == .powerCycle)
        #expect(throws: ControlCommand.ParseError.self) { try ControlCommand(line: "fault sometimes") }
        #expect(throws: ControlCommand.ParseError.self) { try ControlCommand(line: "touch bob 0") }
    }

    @Test func searchTimeGrowsWithTemplatesSearched() {
        let model = TimingModel(profile: .r503, mode: .datasheet)
        let small = model.moduleDuration(for: .search(buffer: 1, start: 0, count: 200), state: .init(templatesSearched: 1))
        let large = model.moduleDuration(for: .search(buffer: 1, start: 0, count: 200), state: .init(templatesSearched: 200))
        #expect(large > small)
        #expect(large >= .milliseconds(1000))
        #expect(model.moduleDuration(for: .genImg, state: .init(fingerPresent: true))
                > model.moduleDuration(for: .genImg, state: .init(fingerPresent: false)))
        #expect(TimingModel(profile: .r307, mode: .instant).moduleDuration(for: .genImg, state: .init()) == .zero)
        #expect(model.wireDuration(bytes: 5760, baudRate: 57600) == .seconds(1))
    }
}
