/// The digits of one finished entry, on their way to the PIN check: never printed (its
/// description is a mask), and wiped by `wipe()` once checked, so the digits do not outlive the
/// check in a buffer of ours.
public struct KeypadSecret: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// ASCII digits.
    private var bytes: [UInt8]

    init(digits: [UInt8]) {
        bytes = digits.map { 0x30 + $0 }
    }

    public var count: Int { bytes.count }

    /// The digits as text, for the PIN check only.
    public func reveal() -> String { String(decoding: bytes, as: UTF8.self) }

    /// Overwrites the digits in place.
    public mutating func wipe() {
        for index in bytes.indices { bytes[index] = 0 }
        bytes.removeAll()
    }

    public var description: String { String(repeating: "•", count: bytes.count) }
    public var debugDescription: String { "KeypadSecret(\(bytes.count) digits)" }
}
