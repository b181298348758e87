import Imaging
import Testing
import Wiegand

@Suite("Encoder: checked input, pulse schedules, round trips")
struct EncoderTests {
    @Test("a schedule: one pulse per bit, on D1 for 1 and D0 for 0, every interval")
    func schedule() throws {
        let encoder = try WiegandEncoder(pulseWidth: 80_000, interval: 1_500_000)
        let credential = try WiegandCredential(format: .w26, facility: 123, number: 4567)
        let pulses = encoder.schedule(credential)
        #expect(pulses.count == 26)
        #expect(pulses.map { $0.line == .d1 ? "1" : "0" }.joined() == "10111101100010001110101110")
        #expect(pulses.allSatisfy { $0.width == 80_000 })
        #expect(pulses.enumerated().allSatisfy { $0.element.start == UInt64($0.offset) * 1_500_000 })
        #expect(encoder.duration(bitCount: 26) == 25 * 1_500_000 + 80_000)
    }

    @Test("facility and card number ranges per format, named in the error")
    func credentialRanges() {
        #expect(throws: WiegandEncoderError.facilityOutOfRange(256, format: .w26, allowed: 0...255)) {
            try WiegandCredential(format: .w26, facility: 256, number: 1)
        }
        #expect(throws: WiegandEncoderError.numberOutOfRange(65536, format: .w26, allowed: 0...65535)) {
            try WiegandCredential(format: .w26, facility: 1, number: 65536)
        }
        #expect(throws: WiegandEncoderError.facilityOutOfRange(65536, format: .w34, allowed: 0...65535)) {
            try WiegandCredential(format: .w34, facility: 65536, number: 1)
        }
        #expect(throws: WiegandEncoderError.numberOutOfRange(70000, format: .w34, allowed: 0...65535)) {
            try WiegandCredential(format: .w34, facility: 1, number: 70000)
        }
        let error = WiegandEncoderError.facilityOutOfRange(256, format: .w26, allowed: 0...255)
        #expect(error.description == "facility code 256 does not fit a 26-bit frame: it must be 0–255")
    }

    @Test("pulse width and interval outside the allowed ranges are refused before anything is made")
    func timingRanges() throws {
        #expect(throws: WiegandEncoderError.pulseWidthOutOfRange(19_999, allowed: 20_000...2_000_000)) {
            try WiegandEncoder(pulseWidth: 19_999)
        }
        #expect(throws: WiegandEncoderError.pulseWidthOutOfRange(2_000_001, allowed: 20_000...2_000_000)) {
            try WiegandEncoder(pulseWidth: 2_000_001, interval: 10_000_000)
        }
        #expect(throws: WiegandEncoderError.intervalOutOfRange(199_999, allowed: 200_000...25_000_000)) {
            try WiegandEncoder(interval: 199_999)
        }
        #expect(throws: WiegandEncoderError.intervalOutOfRange(25_000_001, allowed: 200_000...25_000_000)) {
            try WiegandEncoder(interval: 25_000_001)
        }
        #expect(throws: WiegandEncoderError.pulsesTooClose(pulseWidth: 150_000, interval: 200_000)) {
            try WiegandEncoder(pulseWidth: 150_000, interval: 200_000)
        }
        _ = try WiegandEncoder(pulseWidth: 20_000, interval: 200_000)
        _ = try WiegandEncoder(pulseWidth: 2_000_000, interval: 25_000_000)
        #expect(WiegandEncoderError.intervalOutOfRange(199_999, allowed: 200_000...25_000_000).description
            == "Wiegand pulse interval 199 µs is outside 200 µs–25 ms")
    }

    @Test("a digit above 9 is no key")
    func notAKey() throws {
        let encoder = try WiegandEncoder()
        #expect(throws: WiegandEncoderError.notAKey(12)) { try encoder.schedule(.digit(12), burst: .fourBit) }
    }

    /// Random credentials of both formats through random encoder settings, with every edge moved
    /// by up to ±20% of the interval (and at most 100 µs), back through a standard decoder.
    @Test("encoder then decoder: 2,000 random credentials with jitter come back the same")
    func roundTrip() throws {
        var generator = SeededGenerator(seed: 0x2024)
        var decoder = WiegandDecoder()
        var start = boot
        for _ in 0..<2000 {
            let format: WiegandFormat = Bool.random(using: &generator) ? .w26 : .w34
            let credential = try WiegandCredential(
                format: format, facility: UInt32.random(in: format.facilityRange, using: &generator),
                number: UInt32.random(in: format.numberRange, using: &generator)
            )
            let interval = UInt64.random(in: 500_000...5_000_000, using: &generator)
            let encoder = try WiegandEncoder(pulseWidth: UInt64.random(in: 20_000...100_000, using: &generator), interval: interval)
            let jitter = min(interval / 5, 100_000)
            let train = encoder.schedule(credential).map { pulse in
                WiegandEdge(line: pulse.line, timestamp: start + pulse.start - jitter + UInt64.random(in: 0...(2 * jitter), using: &generator))
            }
            let events = decodeAll(train, decoder: &decoder)
            #expect(events == [.card(format: format, facility: credential.facility, number: credential.number, bits: credential.bits)])
            start += encoder.duration(bitCount: format.bitCount) + 30_000_000
        }
        #expect(decoder.statistics.cards == 2000)
        #expect(decoder.statistics.rejections == 0)
    }
}
