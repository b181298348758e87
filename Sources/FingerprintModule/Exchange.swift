import FingerprintProtocol
import Posix
import SerialPort

/// The exchange core (protocol.md §9.1): flush, one write, read with a deadline and an
/// inter-byte gap rule, decode with resync, check the reply belongs to the command.
extension FingerprintModule {
    /// Options of one exchange; the defaults fit ordinary commands.
    struct ExchangeOptions {
        /// Refuse before sending when the family lacks the instruction.
        var checkFamily = true
        /// Allow the one retry of an idempotent instruction.
        var retry = true
        /// Overrides the instruction's deadline (probes use a short one).
        var deadline: Duration?
        /// Another address the reply may come from (SetAdder replies from the new address).
        var alternateAddress: UInt32?
        /// Re-run the opening sequence on 0x21 / a boot byte and try again (once).
        var recover = true
    }

    /// Sends `command` and returns the module's ack, retrying once when that is safe.
    func perform(_ command: Command, _ options: ExchangeOptions = ExchangeOptions()) throws(ModuleError) -> Acknowledgement {
        let instruction = command.instruction
        if options.checkFamily, let family, !family.profile.supports(instruction) {
            throw .unsupported(instruction, family)
        }
        let recoverable = options.recover && !inOpeningSequence
        // The boot-byte check drains the port, so the first attempt needs no second flush:
        // one non-blocking read instead of a tcflush and another read on every command.
        var drained = false
        if recoverable {
            drained = true
            if try bootByteArrivedSinceLastExchange() {
                try rerunOpeningSequence()
                drained = false
            }
        }
        let attempts = options.retry && instruction.isIdempotent ? 2 : 1
        var attempt = 0
        var recovered = false
        while true {
            do throws(ModuleError) {
                let ack = try exchangeOnce(command, attempt: attempt, options: options,
                                           portAlreadyDrained: drained && attempt == 0 && !recovered)
                // 0x21: the module was re-powered and wants its password again (protocol.md §9 #12).
                // It refused the command, so sending it again is safe whatever the instruction.
                if ack.code == .passwordRequired, recoverable, !recovered, password != 0 {
                    recovered = true
                    try rerunOpeningSequence()
                    continue
                }
                if ack.code == .unsupported, family == .r50x {
                    throw ModuleError.unsupported(instruction, family)
                }
                return ack
            } catch {
                attempt += 1
                guard attempt < attempts, error.isWorthRetrying else { throw error }
            }
        }
    }

    /// Sends `command` and returns its ack only when it is `00`; any other code throws `.module`.
    @discardableResult
    func performExpectingSuccess(_ command: Command, _ options: ExchangeOptions = ExchangeOptions())
        throws(ModuleError) -> Acknowledgement {
        let ack = try perform(command, options)
        guard ack.code == .success else { throw moduleError(command.instruction, ack.code) }
        return ack
    }

    func moduleError(_ instruction: Instruction, _ code: ConfirmationCode) -> ModuleError {
        .module(instruction, code, meaning: code.meaning(in: family ?? .r30x))
    }

    /// One try: flush, write, read the ack.
    private func exchangeOnce(_ command: Command, attempt: Int, options: ExchangeOptions,
                              portAlreadyDrained: Bool = false) throws(ModuleError) -> Acknowledgement {
        if portAlreadyDrained { resetDecoder() } else { try flushInput() }
        decoder.expectedAddress = options.alternateAddress == nil ? address : nil
        sendBuffer.removeAll(keepingCapacity: true)
        command.frame(address: address).appendEncoded(to: &sendBuffer)
        do { try transport.send(sendBuffer) } catch { throw .transport(error) }

        var record = ExchangeRecord(instruction: command.instruction, bytesSent: sendBuffer.count, bytesReceived: 0,
                                    sentAt: Monotonic.nanoseconds(), firstByteAt: nil, doneAt: 0,
                                    baudRate: transport.baudRate, attempt: attempt, code: nil)
        let wait = (options.deadline ?? timeouts.deadline(for: command, baudRate: record.baudRate)) + queuedWireTime
        queuedWireTime = .zero
        do {
            let ack = try readAck(for: command, deadline: now() + wait, waited: wait,
                                  alternateAddress: options.alternateAddress, record: &record)
            record.code = ack.code
            finish(&record)
            return ack
        } catch {
            finish(&record)
            throw error
        }
    }

    /// Reads frames until an ack that belongs to `command` arrives; drops stale and stray ones.
    func readAck(for command: Command, deadline: ContinuousClock.Instant, waited: Duration,
                 alternateAddress: UInt32? = nil, record: inout ExchangeRecord) throws(ModuleError) -> Acknowledgement {
        let instruction = command.instruction
        var dropped: String?
        var foreignAddress: UInt32?
        while let frame = try nextFrame(until: deadline, record: &record) {
            if frame.address != address && frame.address != alternateAddress {
                foreignAddress = frame.address
                continue
            }
            switch frame.packetID {
            case .acknowledge:
                let ack = Acknowledgement(code: ConfirmationCode(rawValue: frame.content[0]),
                                          payload: Array(frame.content.dropFirst()))
                if ack.code == .success,
                   let expected = Acknowledgement.expectedPayloadSize(for: instruction, family: family ?? .r30x),
                   ack.payload.count != expected {
                    // A success ack of another command's shape: a late ack (e.g. after an aura
                    // animation, protocol.md §9 #8). Drop it and keep listening.
                    dropped = "a success ack with \(ack.payload.count) return byte(s), expected \(expected)"
                    continue
                }
                return ack
            case .command:
                if frame.content == command.content { throw .unsupported(instruction, family) }
                dropped = "a command frame [\(frame.content.hexString)]"
            case .data, .end:
                dropped = "a stray \(frame.packetID) packet"
            }
        }
        let statistics = decoder.statistics
        if statistics.addressMismatches > 0 || foreignAddress != nil {
            throw .wrongAddress(instruction, expected: address, seen: foreignAddress ?? addressInReceivedBytes())
        }
        if statistics.rejectedFrames > 0 || decoder.isInsideFrame {
            throw .corruptedReply(instruction, statistics)
        }
        if let dropped { throw .unexpectedPacket(instruction, "only \(dropped) arrived") }
        throw .timeout(instruction, after: waited)
    }

    /// The next valid frame, or nil when `deadline` passes or a started frame stalls longer than
    /// the inter-byte gap.
    func nextFrame(until deadline: ContinuousClock.Instant, record: inout ExchangeRecord) throws(ModuleError) -> Frame? {
        var lastByteAt = now()
        while true {
            if let frame = decoder.nextFrame() { return frame }
            let readDeadline = decoder.isInsideFrame ? min(deadline, lastByteAt + timeouts.interByteGap) : deadline
            if now() >= readDeadline { return nil }
            let bytes: [UInt8]
            do { bytes = try transport.receive(maxCount: 1024, deadline: readDeadline) } catch { throw .transport(error) }
            if bytes.isEmpty { continue }
            lastByteAt = now()
            if record.firstByteAt == nil { record.firstByteAt = Monotonic.nanoseconds() }
            record.bytesReceived += bytes.count
            if receivedHead.count < Self.receivedHeadLimit {
                receivedHead.append(contentsOf: bytes.prefix(Self.receivedHeadLimit - receivedHead.count))
            }
            decoder.feed(bytes)
        }
    }

    /// Drops whatever is pending on the port and in the decoder (protocol.md §9.1 step 1).
    func flushInput() throws(ModuleError) {
        do { try transport.discardInput() } catch { throw .transport(error) }
        resetDecoder()
    }

    /// Forgets partial frames, statistics and diagnostics of the previous exchange.
    func resetDecoder() {
        decoder.reset()
        decoder.resetStatistics()
        receivedHead.removeAll(keepingCapacity: true)
    }

    func setTransportBaudRate(_ rate: Int) throws(ModuleError) {
        do { try transport.setBaudRate(rate) } catch { throw .transport(error) }
    }

    func finish(_ record: inout ExchangeRecord) {
        record.doneAt = Monotonic.nanoseconds()
        exchangeObserver?(record)
    }

    /// A bare 0x55 waiting on the port means the module rebooted since the last exchange.
    /// Reading it costs one non-blocking read, and it is the only way to notice a power cycle
    /// before the module refuses a command.
    /// It drains everything queued, which doubles as the flush before the command.
    private func bootByteArrivedSinceLastExchange() throws(ModuleError) -> Bool {
        var bootByte = false
        while true {
            let pending: [UInt8]
            do { pending = try transport.receive(maxCount: 4096, deadline: now()) } catch { throw .transport(error) }
            if pending.isEmpty { return bootByte }
            if pending.contains(0x55) && !pending.contains(Frame.header.0) { bootByte = true }
        }
    }

    /// The address of the first header in the bytes received, for a wrong-address message.
    private func addressInReceivedBytes() -> UInt32? {
        let bytes = receivedHead
        guard bytes.count >= 6 else { return nil }
        for index in 0..<(bytes.count - 5) where bytes[index] == 0xEF && bytes[index + 1] == 0x01 {
            return bytes[(index + 2)...(index + 5)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        return nil
    }
}

extension ModuleError {
    /// A lost or damaged reply may be retried (for idempotent instructions only).
    var isWorthRetrying: Bool {
        switch self {
        case .timeout, .corruptedReply, .unexpectedPacket: true
        default: false
        }
    }

    /// Failures that mean "nothing sensible came back" — the cue to probe other baud rates.
    var isSilence: Bool {
        switch self {
        case .timeout, .corruptedReply, .unexpectedPacket, .wrongAddress: true
        default: false
        }
    }
}
