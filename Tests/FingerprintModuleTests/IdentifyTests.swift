import FingerprintModule
import FingerprintProtocol
import SerialPort
import Synchronization
import Testing
import TestSupport

@Suite struct IdentifyTests {
    static func module(search: [UInt8], capture: UInt8 = 0x00, extract: UInt8 = 0x00) throws -> (ScriptedModule, FingerprintModule) {
        let script = try ScriptedModule { command, _, _ in
            switch command.instruction {
            case .genImg: ack(capture)
            case .img2Tz: ack(extract)
            case .search: search
            case .readIndexTable:
                command.parameters == [0] ? ack(0x00, [0b0000_0110] + [UInt8](repeating: 0, count: 31))
                    : ack(0x00, [UInt8](repeating: 0, count: 32))
            default: r503Opening(command) ?? ack(0x01)
            }
        }
        return (script, try connectedR503(script))
    }

    @Test func capturesExtractsAndSearchesWithNothingInBetween() throws {
        let (script, module) = try Self.module(search: ack(0x00, SearchHit(slot: 2, score: 180).payload))
        let table = try module.readIndexTable()
        #expect(table.occupied == [1, 2])
        let before = script.calls.count
        var timing = IdentifyTiming()
        #expect(try module.identify(timing: &timing) == .match(slot: 2, score: 180))
        let calls = script.calls.dropFirst(before)
        #expect(calls.map(\.command.instruction) == [.genImg, .img2Tz, .search])
        // Searched the occupied range only: buffer 1, start 1, count 2.
        #expect(calls.last?.command.parameters == [0x01, 0x00, 0x01, 0x00, 0x02])
        #expect(timing.captureStart <= timing.captureEnd && timing.captureEnd <= timing.extractEnd
            && timing.extractEnd <= timing.searchEnd)
    }

    @Test func reportsNoMatchWithoutReadingTheJunkPage() throws {
        // A real R503 answered "not found" with page 01EE (protocol.md §1.4 d).
        let (_, module) = try Self.module(search: ack(0x09, [0x01, 0xEE, 0x00, 0x00]))
        #expect(try module.identify(range: 0..<200) == .noMatch)
    }

    /// Found by tools/fuzz-module.sh: a module answering a Search of slots 1…2 with a hit at
    /// slot 5 was reported as a match of slot 5 (and a 1:1 verify as whoever holds slot 5).
    @Test func aHitOutsideTheRangeSearchedIsNoMatch() throws {
        let (_, module) = try Self.module(search: ack(0x00, SearchHit(slot: 5, score: 180).payload))
        _ = try module.readIndexTable()
        // 1:N over the occupied slots 1…2, then 1:1 on slot 2: neither may come back as slot 5.
        for range in [nil, 2..<3] as [Range<Int>?] {
            do throws(ModuleError) {
                let outcome = try module.identify(range: range)
                Issue.record("expected .unexpectedPacket, got \(outcome)")
            } catch {
                guard case .unexpectedPacket(.search, _) = error else {
                    Issue.record("expected .unexpectedPacket, got \(error)")
                    continue
                }
            }
        }
        #expect(try module.search(range: 5..<6) == .found(SearchHit(slot: 5, score: 180)))
    }

    @Test func noFingerStopsAfterTheCapture() throws {
        let (script, module) = try Self.module(search: ack(0x00, [0, 0, 0, 0]), capture: 0x02)
        #expect(try module.identify() == .noFinger)
        #expect(!script.instructions.contains(0x02))
    }

    @Test func aPoorImageIsReportedWithItsCode() throws {
        let (_, module) = try Self.module(search: ack(0x00, [0, 0, 0, 0]), extract: 0x07)
        #expect(try module.identify() == .poorImage(.featureFail))
    }

    @Test func autoEnrollFollowsEveryStepUntilStored() throws {
        let script = try ScriptedModule { command, _, _ in
            guard command.instruction == .autoEnroll else { return r503Opening(command) ?? ack(0x01) }
            var bytes: [UInt8] = []
            for step: UInt8 in [0x01, 0x02, 0x03, 0x04, 0x0D, 0x0E, 0x0F] { bytes += ack(0x00, [step, 0x07]) }
            return bytes
        }
        let module = try connectedR503(script)
        var steps: [UInt8] = []
        #expect(try module.autoEnroll(slot: 7) { steps.append($0.step) } == 7)
        #expect(steps == [0x01, 0x02, 0x03, 0x04, 0x0D, 0x0E, 0x0F])
    }

    @Test func autoEnrollStopsAtAnErrorStep() throws {
        let script = try ScriptedModule { command, _, _ in
            guard command.instruction == .autoEnroll else { return r503Opening(command) ?? ack(0x01) }
            return ack(0x00, [0x01, 0x07]) + ack(0x27, [0x0D, 0x07])
        }
        let module = try connectedR503(script)
        let error = expectThrows(ModuleError.self) { try module.autoEnroll(slot: 7) }
        #expect(error?.confirmationCode?.rawValue == 0x27)
        if case let .module(_, _, meaning) = error { #expect(meaning == "fingerprint already exists") }
    }

    /// A module at 57600 that switches to the rate of SetSysPara 4 at once, or only after a
    /// power cycle (then it keeps answering at the old rate).
    static func baudModule(appliesAtOnce: Bool) throws -> ScriptedModule {
        let moduleBaud = Mutex(57_600)
        return try ScriptedModule { command, _, hostBaud in
            guard hostBaud == moduleBaud.withLock({ $0 }) else { return [0xF8, 0x80] }
            if command.instruction == .setSysPara, command.parameters.first == 4 {
                if appliesAtOnce { moduleBaud.withLock { $0 = 9600 * Int(command.parameters[1]) } }
                return ack(0x00)
            }
            return r503Opening(command) ?? ack(0x01)
        }
    }

    @Test func setBaudRateTriesTheNewRateFirst() throws {
        let script = try Self.baudModule(appliesAtOnce: true)
        let module = try connectedR503(script)
        let change = try module.setBaudRate(115_200)
        #expect(change == BaudChange(requested: 115_200, answeredAt: 115_200))
        #expect(!change.pendingPowerCycle)
        #expect(script.host.baudRate == 115_200)
        #expect(script.calls.contains { $0.command == .setSysPara(.baudRate, value: 12) })
    }

    @Test func setBaudRateFallsBackToTheOldRateUntilAPowerCycle() throws {
        let script = try Self.baudModule(appliesAtOnce: false)
        let module = try connectedR503(script)
        let change = try module.setBaudRate(19_200)
        #expect(change.answeredAt == 57_600)
        #expect(change.pendingPowerCycle)
        #expect(script.host.baudRate == 57_600)
    }

    @Test func setBaudRateRefusesARateTheFamilyLacks() throws {
        let script = try Self.baudModule(appliesAtOnce: true)
        let module = try connectedR503(script)
        let error = expectThrows(ModuleError.self) { try module.setBaudRate(28_800) }  // N = 3
        guard case .invalidArgument = error else {
            Issue.record("expected .invalidArgument, got \(String(describing: error))")
            return
        }
        #expect(!script.instructions.contains(0x0E))
    }
}
