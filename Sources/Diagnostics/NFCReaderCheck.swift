import PrintableText

/// The NFC reader the config names (`nfc`), as doctor found it: DoctorRun looks at its device
/// node, whether another libnfc program holds it, and whether a reader answers there.
public struct NFCReaderFacts: Sendable, Equatable {
    public enum Node: Sendable, Equatable {
        /// A USB or PC/SC reader: no device file to look at.
        case notAFile
        case present
        case missing
        case notADevice
        /// `group` owns the node (the fix adds the user to it).
        case permissionDenied(group: String?)
    }

    public enum Answer: Sendable, Equatable {
        /// Not tried, because the node is not usable.
        case notTried
        /// Another fpmod program (the running service) has the reader: it was not disturbed.
        case inUse
        /// `nfc_open` and `nfc_initiator_init` succeeded.
        case answered
        /// Why it did not answer (NFCError's text, with its fix).
        case failed(String)
    }

    public var connstring: String
    /// `uid`, or a secure mode.
    public var mode: String
    public var path: String?
    public var node: Node = .notAFile
    public var answer: Answer = .notTried

    public init(connstring: String, mode: String, path: String?) {
        self.connstring = connstring
        self.mode = mode
        self.path = path
    }
}

extension DoctorChecks {
    static func nfcReader(_ context: DoctorContext) -> DoctorCheck {
        let title = "NFC reader"
        guard let facts = context.facts.nfcReader else {
            return DoctorCheck("nfc", title, .skipped, "no NFC reader in the config (\"nfc\": {\"device\": …, \"mode\": …}; see docs/nfc.md).")
        }
        let connstring = Printable.escaped(facts.connstring)
        let path = facts.path.map { Printable.escaped($0) } ?? ""
        switch facts.node {
        case .missing:
            return DoctorCheck("nfc", title, .problem, "\(connstring): \(path) does not exist.",
                               fix: "Enable the interface the PN532 is on (raspi-config → Interface Options: Serial Port with the login shell off, or I2C, or SPI), set its switches to match, and name that node in nfc.device; try it with `fpmod card read --device \(connstring)`.")
        case .notADevice:
            return DoctorCheck("nfc", title, .problem, "\(connstring): \(path) is not a device node.",
                               fix: "Name the reader's tty, i2c-dev or spidev node in nfc.device.")
        case .permissionDenied(let group):
            return DoctorCheck("nfc", title, .problem, "\(connstring): no permission to read and write \(path).",
                               fix: groupFix(group: group ?? "dialout", user: context.facts.user))
        case .notAFile, .present:
            break
        }
        let modeNote = facts.mode == "uid"
            ? " Mode uid: the door opens on a card's UID, which anyone can read and copy onto another card; use it where that is acceptable (docs/nfc.md)."
            : ""
        switch facts.answer {
        case .inUse:
            return DoctorCheck("nfc", title, .ok, "\(connstring) is in use by another fpmod program (the running service?), so it was not opened; the service's `nfc` events say whether it answers.\(modeNote)")
        case .answered:
            return DoctorCheck("nfc", title, facts.mode == "uid" ? .warning : .ok,
                               "a reader answered on \(connstring).\(modeNote) Try a card with `fpmod card read --device \(connstring)` while the service is stopped.")
        case .failed(let problem):
            return DoctorCheck("nfc", title, .problem, Printable.escaped(problem),
                               fix: "Check the reader's wiring and switches, then `fpmod card read --device \(connstring)`.")
        case .notTried:
            return DoctorCheck("nfc", title, .skipped, "\(connstring) was not tried.\(modeNote)")
        }
    }
}
