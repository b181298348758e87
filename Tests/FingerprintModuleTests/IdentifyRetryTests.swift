import FingerprintModule
import FingerprintProtocol
import ModuleSimulator
import Synchronization
import Testing

/// Issue 10, item 8: one damaged byte (or a lost reply) anywhere in GenImg → Img2Tz → Search
/// does not fail an identify: the step is repeated once after a resync. Real PTY, the
/// simulator's faults.
@Suite(.serialized)
struct IdentifyRetryTests {
    static let steps: [Instruction] = [.genImg, .img2Tz, .search]
    static let faults: [Fault] = [.corrupt, .drop]

    @Test(arguments: steps, faults)
    func aDamagedReplyInTheIdentifyCycleIsRepeatedOnce(step: Instruction, fault: Fault) throws {
        let harness = try SimulatorHarness(profile: .r307)
        try harness.enroll("alice-index", slot: 3)
        try harness.waitForCapture(.noFinger)
        harness.server.place("alice-index")
        _ = try harness.module.readIndexTable()

        // The fault hits "the next reply": arm it right after the exchange before `step`.
        let before = Self.steps.firstIndex(of: step).flatMap { $0 > 0 ? Self.steps[$0 - 1] : nil }
        let sent = Mutex<[Instruction]>([])
        let armed = Mutex(before == nil)
        if before == nil { harness.server.fault(fault) }
        let server = harness.server
        harness.module.exchangeObserver = { record in
            sent.withLock { $0.append(record.instruction) }
            if record.instruction == before, armed.withLock({ wasArmed in defer { wasArmed = true }; return !wasArmed }) {
                server.fault(fault)
            }
        }
        let outcome = try harness.module.identify()
        guard case .match(let slot, _) = outcome else {
            Issue.record("expected a match after one damaged \(step) reply, got \(outcome)")
            return
        }
        #expect(slot == 3)
        let instructions = sent.withLock { $0 }
        #expect(instructions.filter { $0 == step }.count == 2, "\(step) repeated once: \(instructions)")
        #expect(harness.server.status().faults.isEmpty, "the fault was used up")
    }

    @Test func twoDamagedRepliesInARowStillFail() throws {
        let harness = try SimulatorHarness(profile: .r307)
        harness.server.place("alice-index")
        harness.server.fault(.noise)
        #expect(throws: ModuleError.self) { try harness.module.identify() }
    }
}
