/// A card a reader found: what ISO/IEC 14443 type A anticollision and selection told it.
///
/// A UID identifies a card, it does not authenticate it: anyone with a reader can read it from
/// a few centimetres away, and "magic" cards and emulators present any UID. A door that opens
/// on a UID alone opens for a copy. `description` therefore never shows the UID; callers that
/// mean to show or store it ask for `uidHex`.
public struct NFCCard: Equatable, Sendable, CustomStringConvertible {
    /// What the card is, from SAK and ATQA (NXP AN10833, "MIFARE type identification procedure").
    public enum Kind: String, Equatable, Sendable {
        /// MIFARE Classic (Mini, 1K, 4K, or emulated by a SmartMX chip): SAK bit 0x08.
        case classic
        /// MIFARE Ultralight or NTAG: SAK 00, ATQA 0044.
        case ultralight
        /// MIFARE DESFire: SAK 20, ATQA 0344.
        case desfire
        /// Anything else (other ISO 14443-4 cards, phones, Plus in SL3 …).
        case other
    }

    public let uid: [UInt8]
    /// ATQA (SENS_RES) first byte first, as libnfc reports it for a PN532 (0x0004: Classic 1K).
    public let atqa: UInt16
    public let sak: UInt8
    /// The answer to select (length byte excluded), for ISO 14443-4 cards; empty otherwise.
    public let ats: [UInt8]

    public init(uid: [UInt8], atqa: UInt16, sak: UInt8, ats: [UInt8] = []) {
        self.uid = uid
        self.atqa = atqa
        self.sak = sak
        self.ats = ats
    }

    public var kind: Kind {
        if sak == 0x20 && atqa == 0x0344 { return .desfire }
        if sak == 0x00 && atqa == 0x0044 { return .ultralight }
        // Bit 0x08 without bit 0x02 (a Classic); 0x28 and 0x38 are Classic emulated by SmartMX.
        if sak & 0x0A == 0x08 && [0x08, 0x09, 0x18, 0x88, 0x28, 0x38].contains(sak) { return .classic }
        return .other
    }

    /// The UID in upper-case hex without separators (`04A1B2C3D4E5F6`). Shown or stored only by
    /// a caller that means to: see the type's note on cloning.
    public var uidHex: String { Self.hex(uid) }

    public var atqaHex: String { Self.hex([UInt8(atqa >> 8), UInt8(atqa & 0xFF)]) }
    public var sakHex: String { Self.hex([sak]) }

    /// Kind and UID length only: logs and error messages built from a card never leak its UID.
    public var description: String { "\(kind.rawValue) card (\(uid.count)-byte UID, ATQA \(atqaHex), SAK \(sakHex))" }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789ABCDEF")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
    }
}
