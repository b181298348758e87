/// A small deterministic generator (SplitMix64). Fingers must look the same in every run and
/// every process, so nothing here may depend on Swift's per-process randomised hashing.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// Seeds from a string with FNV-1a, stable across runs and machines.
    public init(name: String) {
        self.init(seed: SeededRandom.stableHash(name))
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }
}

extension FixedWidthInteger {
    /// Big-endian bytes of the value (the protocol's byte order for every field).
    var bigEndianByteArray: [UInt8] {
        (0..<(Self.bitWidth / 8)).reversed().map { UInt8(truncatingIfNeeded: self >> ($0 * 8)) }
    }
}

extension Array where Element == UInt8 {
    /// Reads a big-endian number at `offset`; missing bytes read as zero.
    func bigEndianValue(at offset: Int, size: Int) -> Int {
        var value = 0
        for index in offset..<offset + size {
            value = value << 8 | Int(index < count ? self[index] : 0)
        }
        return value
    }
}
