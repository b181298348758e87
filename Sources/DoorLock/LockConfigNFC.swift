import NFCInput

extension LockConfig {
    /// `nfc`: an NFC card reader the service polls through libnfc:
    /// `"nfc": {"device": "pn532_uart:/dev/serial0:115200", "mode": "desfire"}`. `mode` has no
    /// default: `desfire` takes only DESFire cards keyed by `fpmod card enroll` that prove their
    /// key; `uid` opens on a card's UID, which anyone can read and copy (docs/nfc.md), so the
    /// config says which was chosen.
    public struct NFCReaderSection: Sendable, Equatable {
        public enum Mode: String, Sendable, CaseIterable {
            /// Only a DESFire card that passes AES authentication with its per-card key.
            case desfire
            /// The card's UID is the credential: convenient, and cloneable.
            case uid
        }

        /// A libnfc connection string, checked when the config is read.
        public var device: String
        public var mode: Mode

        public init(device: String, mode: Mode) {
            self.device = device
            self.mode = mode
        }
    }

    static let nfcKeys = ["device", "mode"]

    mutating func readNFC(_ object: [String: Any], _ r: inout ConfigReader) {
        r.rejectUnknownKeys(object, known: Self.nfcKeys, at: "nfc")
        var device: String?
        if let value = object["device"] {
            if let text = value as? String {
                do { device = try NFCConnection(text).connstring } catch {
                    r.problem("nfc.device", "\(error)")
                }
            } else {
                r.problem("nfc.device", "is a libnfc connection string such as \"pn532_uart:/dev/serial0:115200\"")
            }
        } else {
            r.problem("nfc.device", "missing; give the reader's libnfc connection string, such as \"pn532_uart:/dev/serial0:115200\" (fpmod card read --device tries one)")
        }
        let choices = NFCReaderSection.Mode.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
        var mode: NFCReaderSection.Mode?
        if let value = object["mode"] {
            if let text = value as? String, let known = NFCReaderSection.Mode(rawValue: text) { mode = known } else {
                r.problem("nfc.mode", "is one of \(choices)")
            }
        } else {
            r.problem("nfc.mode", "missing; say how cards are trusted: \(choices) (\"desfire\" takes only cards keyed by fpmod card enroll; \"uid\" opens on a card's UID, which can be copied: see docs/nfc.md)")
        }
        if let device, let mode { nfc = NFCReaderSection(device: device, mode: mode) }
    }
}
