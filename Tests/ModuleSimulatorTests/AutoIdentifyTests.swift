import FingerprintProtocol
import ModuleSimulator
import Testing

/// Grow R50x AutoIdentify (32) as the simulator answers it (protocol.md §2.3): step acks of
/// length 0008 — code, step, ID (2), score (2) — on a real pseudo-terminal.
@Suite struct AutoIdentifyTests {
    func step(_ code: ConfirmationCode, _ step: UInt8, slot: Int = 0, score: Int = 0) -> [UInt8] {
        let payload = [step, UInt8(slot >> 8), UInt8(slot & 0xFF), UInt8(score >> 8), UInt8(score & 0xFF)]
        return Acknowledgement(code: code, payload: payload).frame(address: Frame.defaultAddress).encoded()
    }

    func command(start: UInt8 = 0, count: UInt8 = 200, reportSteps: Bool, attempts: UInt8 = 0) -> Command {
        .growAutoIdentify(securityLevel: 3, start: start, count: count, reportSteps: reportSteps, attempts: attempts)
    }

    @Test func reportsEachStepThenTheMatch() throws {
        let host = try Harness(.init(profile: .r503))
        try host.enroll("kim", slot: 3)
        host.server.place("kim")
        try host.send(command(reportSteps: true))
        let bytes = try host.readRaw()
        let prefix = step(.success, 1) + step(.success, 2)
        #expect(Array(bytes.prefix(prefix.count)) == prefix)
        var decoder = FrameDecoder()
        decoder.feed(Array(bytes.dropFirst(prefix.count)))
        let next = decoder.nextFrame()
        let frame = try #require(next)
        let final = try Acknowledgement(frame: frame)
        #expect(final.code == .success && final.payload.count == 5)
        let score = Int(final.payload[3]) << 8 | Int(final.payload[4])
        #expect(score >= Matcher.threshold(securityLevel: 3))
        #expect(Array(bytes.dropFirst(prefix.count)) == step(.success, 3, slot: 3, score: score))
    }

    @Test func withoutStepReportsOnlyTheResultIsSent() throws {
        let host = try Harness(.init(profile: .r503))
        try host.enroll("kim", slot: 3)
        host.server.place("kim")
        try host.send(command(reportSteps: false))
        let bytes = try host.readRaw()
        #expect(bytes.count == 17)
        var decoder = FrameDecoder()
        decoder.feed(bytes)
        let next = decoder.nextFrame()
        let frame = try #require(next)
        #expect(try Acknowledgement(frame: frame).payload.prefix(3) == [3, 0, 3])
    }

    @Test func strangerRangeMissPoorImageAndNoFinger() throws {
        let host = try Harness(.init(profile: .r503))
        try host.enroll("kim", slot: 3)
        host.server.place("someone-else")
        try host.send(command(reportSteps: false))
        #expect(try host.readRaw() == step(.notFound, 3))
        // The one-byte range 4…13 does not hold slot 3.
        host.server.place("kim")
        try host.send(command(start: 4, count: 10, reportSteps: false))
        #expect(try host.readRaw() == step(.notFound, 3))
        // A poor press is a failed attempt; with none tolerated the module gives up with 07.
        host.server.place("kim", quality: .poor)
        try host.send(command(reportSteps: true))
        #expect(try host.readRaw() == step(.success, 1) + step(.featureFail, 2))
        // No finger: the module's wait (10 s on datasheet timing, none here) ends in 26.
        host.server.lift()
        try host.send(command(reportSteps: true))
        #expect(try host.readRaw() == step(ConfirmationCode(rawValue: 0x26), 1))
    }

    @Test func r307RefusesItAsUnsupported() throws {
        let host = try Harness()
        #expect(try host.code(command(reportSteps: false)) == 0x01)
    }
}
