/// A module's answer to a command: the confirmation code and the return values after it.
public struct Acknowledgement: Equatable, Sendable, CustomStringConvertible {
    public var code: ConfirmationCode
    public var payload: [UInt8]

    public init(code: ConfirmationCode, payload: [UInt8] = []) {
        self.code = code
        self.payload = payload
    }

    /// Reads an ack frame. A frame of another type is a transport problem, not an answer.
    public init(frame: Frame) throws(ProtocolError) {
        guard frame.packetID == .acknowledge else {
            throw .unexpectedPacket(frame.packetID, expected: .acknowledge)
        }
        code = ConfirmationCode(rawValue: frame.content[0])
        payload = Array(frame.content.dropFirst())
    }

    public var content: [UInt8] { [code.rawValue] + payload }

    public func frame(address: UInt32 = Frame.defaultAddress) -> Frame {
        Frame(address: address, packetID: .acknowledge, content: content)
    }

    public var isSuccess: Bool { code == .success }

    public var description: String { "ack \(code)" + (payload.isEmpty ? "" : " [" + payload.hexString + "]") }

    /// Return-value bytes a successful ack of `instruction` carries (§1.3, §2), nil when it varies.
    /// Used to reject a reply whose shape does not belong to the command that was sent — the
    /// stale-ack trap of protocol.md §9 #8.
    public static func expectedPayloadSize(for instruction: Instruction, family: ModuleFamily) -> Int? {
        switch instruction.rawValue {
        case 0x03, 0x1D: 2
        case 0x04, 0x1B, 0x55, 0x56: 4
        case 0x14: 4
        case 0x0F: 16
        case 0x1F, 0x19, 0x39, 0x3A: 32
        case 0x34: family == .synochip ? 32 : nil
        case 0x3C: family == .r50x ? 46 : 0
        case 0x31: family == .r50x ? 2 : nil
        case 0x32: family == .r50x ? 5 : nil
        case 0x01, 0x02, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x0E, 0x12, 0x13, 0x15,
             0x16, 0x17, 0x18, 0x28, 0x29, 0x30, 0x33, 0x35, 0x36, 0x3D, 0x40, 0x50, 0x51, 0x52, 0x53:
            0
        default: nil
        }
    }
}

/// The result of Search/HighSpeedSearch: only read when the code is `00` (a real R503 returned
/// junk page numbers with code `09`, protocol.md §1.4 d).
public struct SearchHit: Equatable, Sendable {
    public var slot: Int
    public var score: Int
    public init(slot: Int, score: Int) {
        self.slot = slot
        self.score = score
    }
    public init(payload: [UInt8]) throws(ProtocolError) {
        var reader = ByteReader(payload)
        slot = Int(try reader.u16())
        score = Int(try reader.u16())
    }
    public var payload: [UInt8] { UInt16(clamping: slot).bigEndianBytes + UInt16(clamping: score).bigEndianBytes }
}
