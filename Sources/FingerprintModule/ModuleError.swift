import FingerprintProtocol

/// Why a driver call failed. Transport problems (nothing came, garbage came, the wrong module
/// answered, the module does not know the instruction) are separate cases from the module's own
/// answer (`.module`), which carries the confirmation code raw — never collapsed, as protocol.md
/// §3 and architecture.md ask.
public enum ModuleError: Error, CustomStringConvertible {
    /// No reply before the deadline. `after` is how long the driver waited (last attempt).
    case timeout(Instruction, after: Duration)
    /// Bytes came, but no valid frame: bad checksums, impossible lengths, a truncated frame or
    /// a data packet that broke mid-transfer.
    case corruptedReply(Instruction, FrameDecoder.Statistics)
    /// Frames came from another module address (the module filters by address, so normally a
    /// wrong address is silence; this is seen on a bus or after a half-finished SetAdder).
    case wrongAddress(Instruction, expected: UInt32, seen: UInt32?)
    /// A frame of the wrong kind or shape: a data packet where an ack was due, a success ack whose
    /// return values do not fit the instruction (a stale ack from an earlier command).
    case unexpectedPacket(Instruction, String)
    /// The family lacks the instruction (refused before sending), or the module echoed the
    /// command back / answered "unsupported".
    case unsupported(Instruction, ModuleFamily?)
    /// The port itself failed (unplugged, permission, busy …); `underlying` says which.
    case transport(any Error)
    /// The module answered with a confirmation code the call cannot turn into a result.
    /// `meaning` is the family's reading of the code, nil when undocumented.
    case module(Instruction, ConfirmationCode, meaning: String?)
    /// Nothing answered at any baud rate tried.
    case noAnswer(port: String, triedBaudRates: [Int])
    /// An argument the module would reject anyway (slot beyond capacity, bad packet size …).
    case invalidArgument(String)

    /// The confirmation code when the module itself answered, else nil.
    public var confirmationCode: ConfirmationCode? {
        if case let .module(_, code, _) = self { return code }
        return nil
    }

    /// True for failures of the link rather than answers of the module.
    public var isTransportFailure: Bool {
        switch self {
        case .module, .invalidArgument, .unsupported: false
        default: true
        }
    }

    public var description: String {
        switch self {
        case let .timeout(instruction, after):
            return "No reply to \(instruction) within \(after.formattedMilliseconds). The module is silent: "
                + "check power, that TX↔RX are crossed, the port, the baud rate (--baud) and the module "
                + "address (--address; a module ignores frames for another address)."
        case let .corruptedReply(instruction, statistics):
            return "The reply to \(instruction) was corrupted (\(statistics.summary)). Check for a loose wire, "
                + "a baud-rate mismatch or electrical noise (long cable, missing common ground), then retry."
        case let .wrongAddress(instruction, expected, seen):
            let who = seen.map { "module address \($0.hex8)" } ?? "another address"
            return "The reply to \(instruction) came from \(who), not \(expected.hex8). "
                + "Set --address (or FPMOD_ADDRESS) to the module's address."
        case let .unexpectedPacket(instruction, what):
            return "Unexpected reply to \(instruction): \(what). The link was resynchronised; retry the command."
        case let .unsupported(instruction, family):
            let name = family.map { " (\($0.profile.displayName))" } ?? ""
            return "This module\(name) does not support \(instruction.name(in: family)). "
                + "If the family was detected wrongly, force it (--family r30x|as608|r50x|synochip)."
        case let .transport(underlying):
            return "\(underlying)"
        case let .module(instruction, code, meaning):
            return "\(instruction) failed: module answered 0x\([code.rawValue].hexString) ("
                + (meaning ?? "undocumented code") + ")." + ModuleError.advice(instruction, code)
        case let .noAnswer(port, rates):
            // One literal per sentence: Swift 6.0.3 cannot type-check the whole concatenation in time.
            let tried: String = rates.map(String.init).joined(separator: ", ")
            let wiring: String = "Check the wiring (module TX → host RX and module RX → host TX, crossed), power "
                + "(3.3 V for R50x, common ground), the port (--port / FPMOD_PORT), and that no serial console uses the UART."
            let pairing: String = "A module paired by fpmod answers only at its pairing's address: if another store paired it, "
                + "use that store (--store and --key) and `fpmod unpair` there; see docs/recovery.md."
            return "No fingerprint module answered on \(port) at any baud rate tried (\(tried)). " + wiring + " " + pairing
        case let .invalidArgument(what):
            return what
        }
    }

    private static let passwordAdvice: String = " The module has a password other than the one sent: another fpmod store paired it, "
        + "or another program set it. Use the store that paired it (--store and --key) and run `fpmod unpair` there to set "
        + "it back to the factory password, or give its password with --password (FPMOD_PASSWORD). docs/recovery.md says "
        + "what to do when that store is lost."

    /// What to do next, for the codes that have a clear fix.
    private static func advice(_ instruction: Instruction, _ code: ConfirmationCode) -> String {
        switch code.rawValue {
        case 0x13, 0x21:
            passwordAdvice
        case 0x02:
            " Place a finger on the sensor and retry."
        case 0x03, 0x06, 0x07, 0x15:
            " Place the finger flat and still, clean the sensor and retry."
        case 0x0B:
            " The slot is outside the library; check the capacity with `fpmod info`."
        case 0x0C:
            " The slot is empty or unreadable."
        case 0x18:
            " The module's flash failed; retry, and replace the module if it persists."
        case 0x01:
            instruction.rawValue >= 0x16
                ? " The module may not support this instruction, or a password is required."
                : " The module received a damaged command; retry."
        default:
            ""
        }
    }
}

extension FrameDecoder.Statistics {
    /// "2 checksum errors, 5 bytes of garbage".
    var summary: String {
        var parts: [String] = []
        if checksumErrors > 0 { parts.append("\(checksumErrors) checksum error(s)") }
        if invalidLengths > 0 { parts.append("\(invalidLengths) impossible length(s)") }
        if invalidPacketIDs > 0 { parts.append("\(invalidPacketIDs) unknown packet type(s)") }
        if addressMismatches > 0 { parts.append("\(addressMismatches) frame(s) for another address") }
        if discardedBytes > 0 { parts.append("\(discardedBytes) byte(s) of garbage") }
        return parts.isEmpty ? "a frame started but did not finish" : parts.joined(separator: ", ")
    }
}

extension Duration {
    var formattedMilliseconds: String {
        let (seconds, attoseconds) = components
        return "\(seconds * 1000 + attoseconds / 1_000_000_000_000_000) ms"
    }

    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
