/// The 16-byte block returned by ReadSysPara (protocol.md §4.1): eight big-endian words.
public struct SystemParameters: Equatable, Sendable, Codable {
    /// Status register bits.
    public struct Status: OptionSet, Equatable, Sendable, Codable {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }
        public static let busy = Status(rawValue: 1 << 0)
        public static let lastMatchSucceeded = Status(rawValue: 1 << 1)
        public static let passwordVerified = Status(rawValue: 1 << 2)
        public static let imageBufferValid = Status(rawValue: 1 << 3)

        /// The set bits in words ("busy, password verified"), "idle" when none is set.
        public var summary: String {
            let names: [(Status, String)] = [(.busy, "busy"), (.lastMatchSucceeded, "last match succeeded"),
                                             (.passwordVerified, "password verified"), (.imageBufferValid, "image in buffer")]
            let parts = names.filter { contains($0.0) }.map(\.1)
            return parts.isEmpty ? "idle" : parts.joined(separator: ", ")
        }
    }

    public var status: Status
    public var systemIdentifier: UInt16
    public var capacity: Int
    public var securityLevel: Int
    public var address: UInt32
    /// Data packet size code 0…3 (32/64/128/256 bytes).
    public var packetSizeCode: Int
    /// Baud multiplier N: baud = 9600 × N.
    public var baudMultiplier: Int

    public init(status: Status = [], systemIdentifier: UInt16 = 0, capacity: Int, securityLevel: Int = 3,
                address: UInt32 = Frame.defaultAddress, packetSizeCode: Int = 2, baudMultiplier: Int = 6) {
        self.status = status
        self.systemIdentifier = systemIdentifier
        self.capacity = capacity
        self.securityLevel = securityLevel
        self.address = address
        self.packetSizeCode = packetSizeCode
        self.baudMultiplier = baudMultiplier
    }

    /// Parses the 16 bytes that follow the confirmation code.
    public init(bytes: [UInt8]) throws(ProtocolError) {
        var reader = ByteReader(bytes)
        status = Status(rawValue: try reader.u16())
        systemIdentifier = try reader.u16()
        capacity = Int(try reader.u16())
        securityLevel = Int(try reader.u16())
        address = try reader.u32()
        packetSizeCode = Int(try reader.u16())
        baudMultiplier = Int(try reader.u16())
    }

    public func encoded() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes += status.rawValue.bigEndianBytes
        bytes += systemIdentifier.bigEndianBytes
        bytes += UInt16(truncatingIfNeeded: capacity).bigEndianBytes
        bytes += UInt16(truncatingIfNeeded: securityLevel).bigEndianBytes
        bytes += address.bigEndianBytes
        bytes += UInt16(truncatingIfNeeded: packetSizeCode).bigEndianBytes
        bytes += UInt16(truncatingIfNeeded: baudMultiplier).bigEndianBytes
        return bytes
    }

    /// Payload bytes per data packet; nil for a code outside 0…3.
    public var packetSize: Int? { PacketSize(code: packetSizeCode)?.bytes }
    /// Bits per second; computed in full width (ADA's 16-bit baud showed 115200 as 49664).
    public var baudRate: Int { 9600 * baudMultiplier }
}

/// The data packet sizes of SetSysPara parameter 6.
public enum PacketSize: Int, CaseIterable, Sendable, Codable {
    case bytes32 = 0, bytes64 = 1, bytes128 = 2, bytes256 = 3

    public init?(code: Int) { self.init(rawValue: code) }
    public init?(bytes: Int) {
        guard let match = PacketSize.allCases.first(where: { $0.bytes == bytes }) else { return nil }
        self = match
    }
    public var bytes: Int { 32 << rawValue }
    public var code: UInt8 { UInt8(rawValue) }
}

/// SetSysPara parameter numbers (protocol.md §4.2).
public enum SystemParameter: UInt8, Sendable {
    case baudRate = 4
    case securityLevel = 5
    case packetSize = 6
}

/// The standard baud rates 9600 × N, N = 1…12.
public enum BaudRate {
    public static let all: [Int] = (1...12).map { 9600 * $0 }
    /// The order in which a silent module is probed (protocol.md §9 #4).
    public static let probeOrder: [Int] = [57600, 115200, 9600, 19200, 38400, 76800, 28800, 48000,
                                           67200, 86400, 96000, 105600]
    public static func multiplier(for baud: Int) -> Int? {
        baud % 9600 == 0 && (1...12).contains(baud / 9600) ? baud / 9600 : nil
    }
}
