import FingerprintProtocol
import Posix

/// AutoEnroll / AutoIdentify in the Grow R50x layout (protocol.md §2.3): one command, then an
/// ack per step until the final one. The SynoChip layout differs and is refused as unsupported.
extension FingerprintModule {
    /// AutoEnroll: the module captures six times and stores the template. `slot` nil lets the
    /// module pick the first free slot. `onStep` sees every intermediate ack. Returns the slot.
    public func autoEnroll(slot: Int? = nil, allowOverwrite: Bool = false, allowDuplicate: Bool = false,
                           requireLift: Bool = true, onStep: (AutoStep) -> Void = { _ in }) throws(ModuleError) -> Int {
        try requireGrowLayout(.autoEnroll)
        if let slot { try checkSlot(slot) }
        guard (slot ?? 0) < 0xC8 else { throw .invalidArgument("AutoEnroll takes slots 0 to 199 (one byte below C8).") }
        let command = Command.growAutoEnroll(slot: UInt8(slot ?? 0xC8), allowOverwrite: allowOverwrite,
                                             allowDuplicate: allowDuplicate, reportSteps: true, requireLift: requireLift)
        var ack = try perform(command)
        while true {
            guard ack.code == .success else { throw moduleError(.autoEnroll, ack.code) }
            let step = AutoStep(code: ack.code, step: ack.payload[0], slot: Int(ack.payload[1]), score: nil)
            onStep(step)
            if step.step == 0x0F {
                indexTable?.insert(step.slot)
                return step.slot
            }
            ack = try nextAutoAck(command)
        }
    }

    /// AutoIdentify: the module captures and searches `range` (1-byte start and count).
    /// Ends at step 03 (the result) or an error code; `09` is `.notFound`.
    /// `reportSteps` false makes the module send only the final ack (two acks less on the wire).
    public func autoIdentify(range: Range<Int>? = nil, securityLevel: Int? = nil, attempts: UInt8 = 1,
                             reportSteps: Bool = true, onStep: (AutoStep) -> Void = { _ in }) throws(ModuleError) -> SearchResult {
        try requireGrowLayout(.autoIdentify)
        let range = if let range { range } else { try defaultSearchRange() }
        guard range.lowerBound >= 0, range.upperBound <= 0xFF, !range.isEmpty else {
            throw .invalidArgument("AutoIdentify covers one or more slots within 0 to 255 (one-byte start and count); it was asked for \(SlotText.of(range)).")
        }
        let level = securityLevel ?? systemParameters?.securityLevel ?? 3
        let command = Command.growAutoIdentify(securityLevel: UInt8(clamping: level), start: UInt8(range.lowerBound),
                                               count: UInt8(range.count), reportSteps: reportSteps, attempts: attempts)
        var ack = try perform(command)
        while true {
            if ack.code == .notFound { return .notFound }
            guard ack.code == .success else { throw moduleError(.autoIdentify, ack.code) }
            let payload = ack.payload
            let step = AutoStep(code: ack.code, step: payload[0], slot: Int(payload[1]) << 8 | Int(payload[2]),
                                score: Int(payload[3]) << 8 | Int(payload[4]))
            onStep(step)
            if step.step == 0x03 { return .found(SearchHit(slot: step.slot, score: step.score ?? 0)) }
            ack = try nextAutoAck(command)
        }
    }

    private func requireGrowLayout(_ instruction: Instruction) throws(ModuleError) {
        guard family == .r50x else { throw .unsupported(instruction, family) }
    }

    /// The next step ack of a running automatic command, within `timeouts.automatic`.
    private func nextAutoAck(_ command: Command) throws(ModuleError) -> Acknowledgement {
        var record = ExchangeRecord(instruction: command.instruction, bytesSent: 0, bytesReceived: 0,
                                    sentAt: Monotonic.nanoseconds(),
                                    firstByteAt: nil, doneAt: 0, baudRate: transport.baudRate, attempt: 0, code: nil)
        defer { finish(&record) }
        let ack = try readAck(for: command, deadline: now() + timeouts.automatic, waited: timeouts.automatic, record: &record)
        record.code = ack.code
        return ack
    }
}
