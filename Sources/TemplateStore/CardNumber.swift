/// A card's number as read at the door, in one canonical text per card, so the same card gives
/// the same keyed hash whichever way it was typed or read. Never stored or logged as it is.
public struct CardNumber: Hashable, Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        /// A Wiegand reader's card: bit length, facility code and card number.
        case wiegand
        /// An NFC card's UID (4, 7 or 10 bytes). Cloneable: see docs/nfc.md.
        case nfcUID = "nfc-uid"
        /// A MIFARE DESFire card enrolled by `fpmod card enroll`: its UID counts only once the
        /// card proved, by AES authentication, that it holds the key fpmod gave it.
        case desfire
    }

    public let kind: Kind
    /// "wiegand26:123:4567", "uid:04a1b2c3" or "desfire:04a1b2c3d4e5f6"; the input of the keyed hash.
    let canonical: String

    public init(wiegandBits bits: Int, facility: UInt32, number: UInt32) {
        kind = .wiegand
        canonical = "wiegand\(bits):\(facility):\(number)"
    }

    public init(uid: [UInt8]) {
        kind = .nfcUID
        canonical = "uid:" + uid.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// A DESFire card whose UID was authenticated (see `Kind.desfire`). Only the enroll and the
    /// reader's secure read make one: `init(parsing:)` refuses the spelling, since typing a UID
    /// proves nothing.
    public init(desfireUID uid: [UInt8]) {
        kind = .desfire
        canonical = "desfire:" + uid.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// As `init(parsing:)` reads it: "26:123:4567", "uid:04a1b2c3". A credential: never log it.
    public var typed: String {
        kind == .wiegand ? String(canonical.dropFirst("wiegand".count)) : canonical
    }

    /// The installer's spelling: `26:FACILITY:NUMBER` or `34:FACILITY:NUMBER` for a Wiegand
    /// card (as `fpmod wiegand listen` prints them), `uid:HEX` for an NFC card (as `fpmod card
    /// read` prints it; colons and spaces between bytes are fine).
    public init(parsing text: String) throws(CardNumberError) {
        let lowered = text.lowercased()
        if lowered.hasPrefix("desfire:") { throw .desfireNotTyped }
        if lowered.hasPrefix("uid:") {
            let hex = lowered.dropFirst(4).filter { $0 != ":" && $0 != " " && $0 != "-" }
            guard !hex.isEmpty, hex.count % 2 == 0, hex.allSatisfy(\.isHexDigit) else { throw .badUID }
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                guard let byte = UInt8(hex[index..<next], radix: 16) else { throw .badUID }
                bytes.append(byte)
                index = next
            }
            guard [4, 7, 10].contains(bytes.count) else { throw .uidLength(bytes.count) }
            self.init(uid: bytes)
            return
        }
        let parts = lowered.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let bits = Int(parts[0]), let facility = UInt32(parts[1]), let number = UInt32(parts[2]) else {
            throw .unrecognised
        }
        // H10301 (26 bits): facility 8 bits, number 16; the 34-bit format: facility 16, number 16.
        let facilityBits: Int
        switch bits {
        case 26: facilityBits = 8
        case 34: facilityBits = 16
        default: throw .wiegandLength(bits)
        }
        guard facility < (1 << facilityBits) else { throw .facilityRange(facility, bits: bits, maximum: (1 << facilityBits) - 1) }
        guard number <= 0xFFFF else { throw .numberRange(number) }
        self.init(wiegandBits: bits, facility: facility, number: number)
    }
}

/// Why a card number as typed is not one, with the forms that are.
public enum CardNumberError: Error, Equatable, Sendable, CustomStringConvertible {
    case unrecognised
    case badUID
    case uidLength(Int)
    case wiegandLength(Int)
    case facilityRange(UInt32, bits: Int, maximum: Int)
    case numberRange(UInt32)
    case desfireNotTyped

    static let forms = "give a Wiegand card as 26:FACILITY:NUMBER or 34:FACILITY:NUMBER (as `fpmod wiegand listen` prints it) or an NFC card as uid:HEX (as `fpmod card read` prints it)"

    public var description: String {
        switch self {
        case .unrecognised: "not a card number; \(Self.forms)"
        case .badUID: "an NFC UID is hexadecimal bytes after uid:, such as uid:04a1b2c3; \(Self.forms)"
        case .uidLength(let count): "an NFC UID is 4, 7 or 10 bytes, not \(count)"
        case .wiegandLength(let bits): "\(bits)-bit Wiegand cards are not read here; only 26- and 34-bit cards are"
        case .facilityRange(let facility, let bits, let maximum): "facility \(facility) does not fit a \(bits)-bit card (0 to \(maximum))"
        case .desfireNotTyped: "a DESFire card is not added by its UID: hold it on the reader and run fpmod card enroll NAME, which keys it"
        case .numberRange(let number): "card number \(number) does not fit a Wiegand card (0 to 65535)"
        }
    }
}
