/// The packet identifier (byte 6 of every frame), protocol.md §1.2.
public enum PacketID: UInt8, Sendable, CustomStringConvertible {
    /// Host → module instruction. Received from a module it means "echoed: unsupported" (R551).
    case command = 0x01
    /// A data packet with more to follow.
    case data = 0x02
    /// Module → host acknowledgement carrying a confirmation code.
    case acknowledge = 0x07
    /// The last data packet of a transfer.
    case end = 0x08

    public var description: String {
        switch self {
        case .command: "command"
        case .data: "data"
        case .acknowledge: "ack"
        case .end: "end"
        }
    }
}

/// One packet of the module protocol: `EF 01 | address(4) | PID | length(2) | content | checksum(2)`.
///
/// `content` is everything between the length field and the checksum: an instruction and its
/// parameters, a confirmation code and its return values, or a data payload.
public struct Frame: Equatable, Sendable, CustomStringConvertible {
    public static let header: (UInt8, UInt8) = (0xEF, 0x01)
    /// The factory address every module ships with.
    public static let defaultAddress: UInt32 = 0xFFFF_FFFF
    /// Bytes before the content: header, address, PID, length.
    public static let prefixSize = 9
    /// Legal values of the length field (content + 2 checksum bytes); 2 would be empty content.
    public static let lengthRange: ClosedRange<Int> = 3...258
    /// The largest content a frame can carry.
    public static let maximumContentSize = 256

    public var address: UInt32
    public var packetID: PacketID
    public var content: [UInt8]

    public init(address: UInt32 = Frame.defaultAddress, packetID: PacketID, content: [UInt8]) {
        precondition(!content.isEmpty && content.count <= Frame.maximumContentSize,
                     "frame content must be 1 to 256 bytes, got \(content.count)")
        self.address = address
        self.packetID = packetID
        self.content = content
    }

    /// The value of the length field: content plus the two checksum bytes.
    public var lengthField: Int { content.count + 2 }

    /// Sum of PID, both length bytes and every content byte, kept to 16 bits (protocol.md §1.2).
    public static func checksum(packetID: UInt8, content: some Collection<UInt8>) -> UInt16 {
        let length = content.count + 2
        var sum = UInt32(packetID) + UInt32(length >> 8) + UInt32(length & 0xFF)
        for byte in content { sum &+= UInt32(byte) }
        return UInt16(truncatingIfNeeded: sum)
    }

    public var checksum: UInt16 { Frame.checksum(packetID: packetID.rawValue, content: content) }

    /// The bytes on the wire.
    public func encoded() -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(Frame.prefixSize + lengthField)
        appendEncoded(to: &bytes)
        return bytes
    }

    /// Appends the wire bytes to `bytes` (lets a transfer build many packets in one buffer).
    public func appendEncoded(to bytes: inout [UInt8]) {
        bytes.append(Frame.header.0)
        bytes.append(Frame.header.1)
        bytes.append(contentsOf: address.bigEndianBytes)
        bytes.append(packetID.rawValue)
        bytes.append(UInt8(lengthField >> 8))
        bytes.append(UInt8(lengthField & 0xFF))
        bytes.append(contentsOf: content)
        let sum = checksum
        bytes.append(UInt8(sum >> 8))
        bytes.append(UInt8(sum & 0xFF))
    }

    /// Number of bytes this frame occupies on the wire.
    public var wireSize: Int { Frame.prefixSize + lengthField }

    public var description: String {
        "\(packetID) @\(address.hex8) [\(content.hexString)]"
    }
}

extension UInt32 {
    @inlinable var bigEndianBytes: [UInt8] {
        [UInt8(self >> 24), UInt8((self >> 16) & 0xFF), UInt8((self >> 8) & 0xFF), UInt8(self & 0xFF)]
    }
    /// `FFFFFFFF`-style, eight upper-case hex digits.
    public var hex8: String {
        let digits = String(self, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }
}

extension UInt16 {
    @inlinable var bigEndianBytes: [UInt8] { [UInt8(self >> 8), UInt8(self & 0xFF)] }
}

extension Collection where Element == UInt8 {
    /// "EF 01 FF …" — how the protocol reference writes bytes.
    public var hexString: String {
        map { byte in
            let digits = String(byte, radix: 16, uppercase: true)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
    }
}

/// Reads big-endian numbers from a byte slice without bounds surprises.
public struct ByteReader: Sendable {
    private let bytes: [UInt8]
    public private(set) var offset: Int

    public init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    public var remaining: Int { bytes.count - offset }

    public mutating func u8() throws(ProtocolError) -> UInt8 {
        guard remaining >= 1 else { throw .truncated(expected: offset + 1, got: bytes.count) }
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func u16() throws(ProtocolError) -> UInt16 {
        let high = try u8(), low = try u8()
        return UInt16(high) << 8 | UInt16(low)
    }

    public mutating func u32() throws(ProtocolError) -> UInt32 {
        let high = try u16(), low = try u16()
        return UInt32(high) << 16 | UInt32(low)
    }

    public mutating func take(_ count: Int) throws(ProtocolError) -> [UInt8] {
        guard remaining >= count else { throw .truncated(expected: offset + count, got: bytes.count) }
        defer { offset += count }
        return Array(bytes[offset..<offset + count])
    }
}

/// A reply whose shape does not fit the instruction that was sent. These are transport-level
/// problems, never module answers.
public enum ProtocolError: Error, Equatable, Sendable, CustomStringConvertible {
    case truncated(expected: Int, got: Int)
    case unexpectedPacket(PacketID, expected: PacketID)
    case invalidValue(String)

    public var description: String {
        switch self {
        case let .truncated(expected, got):
            "reply too short: needed \(expected) content bytes, got \(got)"
        case let .unexpectedPacket(got, expected):
            "unexpected \(got) packet where a \(expected) packet was due"
        case let .invalidValue(what):
            "invalid value: \(what)"
        }
    }
}
