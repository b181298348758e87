/// The card formats fpmod reads and sends.
///
/// Both put an even parity bit first and an odd parity bit last around the data, and split
/// the data into two halves for them:
///
/// - **26-bit (HID H10301)**: `E FFFFFFFF NNNNNNNNNNNNNNNN O`. Bit 0 makes bits 0…12 even (it
///   covers the facility code and the card number's first 4 bits), bit 25 makes bits 13…25 odd.
///   Facility 0–255, card number 0–65,535.
/// - **34-bit** (the common layout, as HID's H10306): `E F×16 N×16 O`, bit 0 even over the first
///   16 data bits (bits 1…16), bit 33 odd over the last 16 (bits 17…32). Facility 0–65,535, card
///   number 0–65,535. Some readers send the 32 data bits as one number instead: `number` plus
///   `facility << 16` gives it back.
///
/// Checked against public references (read, not copied): HID's tech tip "The Standard 26 Bit
/// Format" (identisource.net/26_bit_format_layout.cfm: `PAAAAAAAABBBBBBBBBBBBBBBBP`, even
/// parity over the first 13 bits, odd over the last 13); Rosslare's AY-G6xx0 manual (bit 1 even
/// parity of bits 2–13, bit 26 odd parity of bits 14–25, 1-based); Promag WEC200's Wiegand
/// appendix (34-bit: 16 site bits, 16 card bits, even over the first 16 data bits, odd over
/// the last 16); ZKTeco's MultiBio700 manual (34-bit: even parity over bits 2–17, odd over
/// 18–33); Civintec's CN56 reader manual, whose worked examples (data `D4 1B 81` → 26 bits
/// `1 11010100 00011011 10000001 0`, data `89 D4 1B 81` → 34 bits
/// `1 10001001 11010100 00011011 10000001 1`) are among the tests' vectors.
public enum WiegandFormat: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case w26
    case w34

    /// The frame's length, parity bits included.
    public var bitCount: Int {
        switch self {
        case .w26: 26
        case .w34: 34
        }
    }

    /// The format a frame of `bitCount` bits is read as, if any.
    public init?(bitCount: Int) {
        switch bitCount {
        case 26: self = .w26
        case 34: self = .w34
        default: return nil
        }
    }

    /// Bits of the facility code (the card number always has 16).
    public var facilityBitCount: Int { bitCount - 2 - Self.numberBitCount }
    public static let numberBitCount = 16

    public var facilityRange: ClosedRange<UInt32> { 0...UInt32((1 << facilityBitCount) - 1) }
    public var numberRange: ClosedRange<UInt32> { 0...UInt32((1 << Self.numberBitCount) - 1) }

    /// Data bits each parity bit covers (12 or 16).
    var halfLength: Int { (bitCount - 2) / 2 }

    public var description: String { "\(bitCount)-bit" }

    /// The frame for a facility code and card number, parity bits set. Both must be in range.
    func frame(facility: UInt32, number: UInt32) -> WiegandBits {
        precondition(facilityRange.contains(facility) && numberRange.contains(number))
        let data = UInt64(facility) << UInt64(Self.numberBitCount) | UInt64(number)
        let half = UInt64(halfLength)
        let leading = data >> half
        let trailing = data & ((1 << half) - 1)
        let even: UInt64 = leading.nonzeroBitCount % 2 == 1 ? 1 : 0
        let odd: UInt64 = trailing.nonzeroBitCount % 2 == 0 ? 1 : 0
        return WiegandBits(count: bitCount, value: even << UInt64(bitCount - 1) | data << 1 | odd)
    }

    /// Which parity checks of a frame of this format fail; nil when both hold.
    func parityFailure(of bits: WiegandBits) -> WiegandParityFailure? {
        precondition(bits.count == bitCount)
        let leading = bits.field(from: 0, length: halfLength + 1)
        let trailing = bits.field(from: 1 + halfLength, length: halfLength + 1)
        let evenHolds = leading.nonzeroBitCount % 2 == 0
        let oddHolds = trailing.nonzeroBitCount % 2 == 1
        switch (evenHolds, oddHolds) {
        case (true, true): return nil
        case (false, true): return .leadingEven
        case (true, false): return .trailingOdd
        case (false, false): return .both
        }
    }
}

/// Which of a card frame's two parity checks failed.
public enum WiegandParityFailure: Sendable, Hashable, CustomStringConvertible {
    /// The first bit does not make the first half even.
    case leadingEven
    /// The last bit does not make the second half odd.
    case trailingOdd
    case both

    public var description: String {
        switch self {
        case .leadingEven: "the first half's even parity"
        case .trailingOdd: "the second half's odd parity"
        case .both: "both halves' parity"
        }
    }
}

/// How a keypad sends one key.
///
/// - **4 bits**: the key's value alone, 0–9, 10 = `*`, 11 = `#` (Rosslare's "Single Key,
///   Wiegand 4-Bit").
/// - **8 bits**: the value's ones' complement in the high nibble, then the value (HID's PINpad
///   8-bit Wiegand reader, Rosslare's "8-Bit Nibbles Complemented": `1` → `1110 0001`, `#` →
///   `0100 1011`), so a lost or extra bit shows.
public enum WiegandKeyBurst: Sendable, Hashable, CaseIterable {
    case fourBit
    case eightBit

    public var bitCount: Int { self == .fourBit ? 4 : 8 }

    func frame(code: UInt8) -> WiegandBits {
        precondition(code < 16)
        switch self {
        case .fourBit: return WiegandBits(count: 4, value: UInt64(code))
        case .eightBit: return WiegandBits(count: 8, value: UInt64(~code & 0xF) << 4 | UInt64(code))
        }
    }
}
