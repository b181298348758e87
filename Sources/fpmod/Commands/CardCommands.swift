import ArgumentParsing
import Foundation
import NFCInput
import PN532Simulator
import Posix
import PrintableText
import TemplateStore

/// `fpmod card read` and `fpmod sim --profile pn532`: an NFC reader brought up through libnfc,
/// and the simulated PN532 to try it on. The work is NFCInput's and PN532Simulator's; this
/// reads options and prints.
enum CardCommands {
    static let cloneWarning = "Warning: a UID identifies a card but does not prove it: anyone can read and clone it, so do not open a door on the UID alone."

    static func read(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        // Every value checked before the reader is opened.
        let connection = try NFCConnection(parsed.string("device") ?? "pn532_uart:/dev/serial0:115200")
        let timeout = try parsed.duration("timeout") ?? .seconds(10)
        guard timeout > .zero else { throw CommandFailure(.usage, "--timeout must be longer than 0s.") }
        let deadline = ContinuousClock.now + timeout
        let reader = try NFCReader.open(connection.connstring, deadline: deadline)
        defer { reader.close() }
        invocation.progress("Hold a card on the reader (\(Printable.escaped(connection.connstring))), up to \(timeout).")
        // With a store that has enrolled DESFire cards, a DESFire card is also put to fpmod's
        // AES authentication; without one there is no key to try.
        let masterKey = try desfireMasterKey(invocation)
        let (card, secure) = try readWithVerdict(reader, until: deadline, masterKey: masterKey, timeout: timeout)
        var lines = "\(card.kind.rawValue) card, UID \(card.uidHex) (ATQA \(card.atqaHex), SAK \(card.sakHex))"
        if card.kind == .desfire { lines += "\n" + secure.sentence }
        invocation.emit(lines,
                        json: ["type": .string(card.kind.rawValue), "uid": .string(card.uidHex), "atqa": .string(card.atqaHex),
                               "sak": .string(card.sakHex), "uidLength": .int(Int64(card.uid.count)), "secure": .string(secure.rawValue)])
        if secure != .authenticated { invocation.progress(cloneWarning) }
        // A DESFire card that fails the authentication is what a copy looks like: not a success.
        return secure == .wrongKey ? .denied : .ok
    }

    /// The card, and fpmod's verdict on it (authenticated only when there is a key to try).
    static func readWithVerdict(_ reader: NFCReader, until deadline: ContinuousClock.Instant, masterKey: [UInt8]?,
                                timeout: Duration) throws -> (NFCCard, SecureVerdict) {
        guard let masterKey else {
            guard let read = try reader.read(until: deadline) else { throw noCard(timeout) }
            return (read, read.kind == .desfire ? .notChecked : .notDESFire)
        }
        guard let read = try reader.readSecure(until: deadline, masterKey: masterKey) else { throw noCard(timeout) }
        switch read {
        case let .plain(card): return (card, .notDESFire)
        case let .authenticated(card): return (card, .authenticated)
        case let .rejected(card, .noApplication): return (card, .noApplication)
        case let .rejected(card, .wrongKey): return (card, .wrongKey)
        }
    }

    /// What fpmod's secure mode makes of the card `card read` saw.
    enum SecureVerdict: String {
        case authenticated
        case wrongKey = "wrong-key"
        case noApplication = "no-application"
        case notChecked = "not-checked"
        case notDESFire = "not-desfire"

        var sentence: String {
            switch self {
            case .authenticated: "fpmod: AES authentication passed with this store's key for the card: its UID is authentic."
            case .wrongKey: "fpmod: AES authentication FAILED: the card carries fpmod's application but not this store's key for it (another store's card, or a copy). It is not accepted."
            case .noApplication: "fpmod: no fpmod application on this card: it is not enrolled (fpmod card enroll NAME)."
            case .notChecked: "fpmod: not checked: this store has enrolled no DESFire card yet (fpmod card enroll NAME)."
            case .notDESFire: "fpmod: not a DESFire card fpmod can authenticate (libfreefare does not take it for one): its UID alone proves nothing."
            }
        }
    }

    static func noCard(_ timeout: Duration) -> CommandFailure {
        CommandFailure(.tryLater, "No card on the reader within \(timeout): hold it flat on the antenna, within 2 cm, and try again.")
    }

    /// The store's DESFire master key when there is a store holding one; nil otherwise (card
    /// read also serves bring-up on a machine without a store).
    static func desfireMasterKey(_ invocation: Invocation) throws -> [UInt8]? {
        let paths = invocation.storePaths
        guard FileManager.default.fileExists(atPath: paths.database), FileManager.default.fileExists(atPath: paths.key) else { return nil }
        return try invocation.openStoreForReading().desfireMasterKey(create: false)
    }

    /// `fpmod sim --profile pn532`: a simulated PN532 until SIGINT/SIGTERM. Stdout gets the
    /// device path, then the control socket's.
    static func simulate(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        for option in ["state", "search-model", "glitch", "finger", "images", "timing"] where parsed.isExplicit(option) {
            throw CommandFailure(.usage, "--\(option) is for simulated modules and sensors; the pn532 reader takes --card, --control and --link.")
        }
        let card = try parsed.string("card").map(parseCard)
        let controlPath = parsed.string("control")
            ?? PN532SimulatorServer.defaultControlPath(environment: ProcessInfo.processInfo.environment, processID: CurrentProcess.id)
        // Block the signals before the server thread exists, so they reach the signalfd.
        let signals = try SignalWatcher(signals: [SIGINT, SIGTERM])
        let server = try PN532SimulatorServer(controlPath: controlPath, card: card)
        server.start()
        if let link = parsed.string("link") { try server.publishLink(at: link) }
        StandardStreams.writeOutput(server.devicePath + "\n" + controlPath + "\n")
        invocation.progress("fpmod sim: PN532 reader on \(server.devicePath) (libnfc: pn532_uart:\(server.devicePath)), control \(controlPath)"
            + (parsed.string("link").map { ", link \($0)" } ?? "") + "; Ctrl-C to stop")
        _ = signals.waitForAny()
        server.stop()
        return .ok
    }

    /// `TYPE:UID`, e.g. `classic:0A1B2C3D`.
    static func parseCard(_ text: String) throws -> SimulatedCard {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        let types = SimulatedCard.Kind.allCases.filter { $0 != .custom }.map(\.rawValue)
        guard parts.count == 2, let kind = SimulatedCard.Kind(rawValue: parts[0]), kind != .custom else {
            throw CommandFailure(.usage, "--card is TYPE:UID with TYPE one of \(types.joined(separator: ", ")), e.g. classic:0A1B2C3D.")
        }
        let digits = parts[1]
        guard !digits.isEmpty, digits.count % 2 == 0, digits.count <= 20, digits.allSatisfy(\.isHexDigit) else {
            throw CommandFailure(.usage, "--card's UID is hex bytes, e.g. classic:0A1B2C3D.")
        }
        var uid: [UInt8] = []
        var index = digits.startIndex
        while index < digits.endIndex {
            let next = digits.index(index, offsetBy: 2)
            uid.append(UInt8(digits[index..<next], radix: 16)!)
            index = next
        }
        do { return try SimulatedCard(kind: kind, uid: uid) } catch {
            throw CommandFailure(.usage, "--card: \(error.description).")
        }
    }
}
