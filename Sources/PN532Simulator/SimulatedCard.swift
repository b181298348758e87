/// An ISO/IEC 14443 type A card in the simulated PN532's field: what its anticollision and
/// selection tell a reader (UID, ATQA, SAK) and, for ISO 14443-4 cards, its ATS.
public struct SimulatedCard: Equatable, Sendable {
    /// The card types the control socket names, with their usual ATQA, SAK and ATS (NXP's
    /// AN10833 "MIFARE type identification procedure").
    public enum Kind: String, Sendable, CaseIterable {
        /// MIFARE Classic 1K: SAK 08, ATQA 0004 (4-byte UID) or 0044 (7-byte UID).
        case classic
        /// MIFARE DESFire (EV1 and later): SAK 20, ATQA 0344, an ATS; 7-byte UID.
        case desfire
        /// MIFARE Ultralight or NTAG: SAK 00, ATQA 0044; 7-byte UID.
        case ultralight
        /// Any other: ATQA and SAK (and an ATS when SAK says ISO 14443-4) given explicitly.
        case custom
    }

    public let uid: [UInt8]
    /// ATQA (SENS_RES) as the PN532 reports it, first byte first (0x0004 for a Classic 1K).
    public let atqa: UInt16
    public let sak: UInt8
    /// The answer to select, length byte TL first; empty for cards without ISO 14443-4.
    public let ats: [UInt8]
    public let kind: Kind
    /// For a DESFire card, the PICC master key (DES, 8 bytes) it is placed with; nil leaves the
    /// key it has (the factory all-zero key for a card never seen before).
    public let piccKey: [UInt8]?

    /// Why a card cannot be placed.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case uidLength(Int)
        case cascadeTag
        case needsSevenByteUID(Kind)
        case customNeedsATQAAndSAK
        case atsLength(Int)
        case atsWithoutISO14443_4
        case piccKeyWithoutDESFire
        case piccKeyLength(Int)

        public var description: String {
            switch self {
            case let .uidLength(count): "a UID has 4 or 7 bytes, not \(count)"
            case .cascadeTag: "a 4-byte UID cannot start with 88 (the cascade tag)"
            case let .needsSevenByteUID(kind): "a \(kind.rawValue) card has a 7-byte UID"
            case .customNeedsATQAAndSAK: "a custom card needs \"atqa\" (4 hex digits) and \"sak\" (2 hex digits)"
            case let .atsLength(count): "an ATS has 2 to 20 bytes with its length byte first matching, not \(count)"
            case .atsWithoutISO14443_4: "an ATS needs SAK bit 0x20 (ISO 14443-4)"
            case .piccKeyWithoutDESFire: "only a desfire card has a PICC master key"
            case let .piccKeyLength(count): "a PICC master key here is a DES key of 8 bytes, not \(count)"
            }
        }
    }

    /// The DESFire EV1 ATS: TL 06, T0 75, TA 77, TB 81, TC 02, historical byte 80.
    public static let desfireATS: [UInt8] = [0x06, 0x75, 0x77, 0x81, 0x02, 0x80]

    /// A card of `kind`; `atqa`, `sak` and `ats` override the kind's (and are required for `custom`).
    public init(kind: Kind, uid: [UInt8], atqa: UInt16? = nil, sak: UInt8? = nil, ats: [UInt8]? = nil, piccKey: [UInt8]? = nil) throws(Problem) {
        if let piccKey {
            guard kind == .desfire else { throw .piccKeyWithoutDESFire }
            guard piccKey.count == 8 else { throw .piccKeyLength(piccKey.count) }
        }
        guard uid.count == 4 || uid.count == 7 else { throw .uidLength(uid.count) }
        if uid.count == 4 && uid[0] == 0x88 { throw .cascadeTag }
        let defaults: (atqa: UInt16, sak: UInt8, ats: [UInt8])
        switch kind {
        case .classic:
            defaults = (uid.count == 4 ? 0x0004 : 0x0044, 0x08, [])
        case .desfire:
            guard uid.count == 7 else { throw .needsSevenByteUID(kind) }
            defaults = (0x0344, 0x20, Self.desfireATS)
        case .ultralight:
            guard uid.count == 7 else { throw .needsSevenByteUID(kind) }
            defaults = (0x0044, 0x00, [])
        case .custom:
            guard let atqa, let sak else { throw .customNeedsATQAAndSAK }
            defaults = (atqa, sak, [])
        }
        let finalSAK = sak ?? defaults.sak
        let finalATS = ats ?? defaults.ats
        if !finalATS.isEmpty {
            guard (2...20).contains(finalATS.count), Int(finalATS[0]) == finalATS.count else { throw .atsLength(finalATS.count) }
            guard finalSAK & 0x20 != 0 else { throw .atsWithoutISO14443_4 }
        }
        self.kind = kind
        self.piccKey = piccKey
        self.uid = uid
        self.atqa = atqa ?? defaults.atqa
        self.sak = finalSAK
        self.ats = finalATS
    }

    /// The UID as a reader selects it by: 4 bytes, or the cascade tag 88 and all 7 (as libnfc
    /// passes a UID to InListPassiveTarget).
    var cascadedUID: [UInt8] { uid.count == 4 ? uid : [0x88] + uid }

    /// TargetData of InListPassiveTarget at 106 kbps type A (UM0701-02 §7.3.5): Tg, SENS_RES,
    /// SEL_RES, NFCIDLength, NFCID1, and the ATS when the PN532 sent RATS itself.
    func targetData(number: UInt8, withATS: Bool) -> [UInt8] {
        var data: [UInt8] = [number, UInt8(atqa >> 8), UInt8(atqa & 0xFF), sak, UInt8(uid.count)] + uid
        if withATS && !ats.isEmpty { data += ats }
        return data
    }
}
