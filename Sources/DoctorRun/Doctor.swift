import Administration
import Diagnostics
import DoorLock
import FingerprintModule
import FingerprintProtocol
import GPIO
import KeypadInput
import NFCInput
import ReaderSessions
import SerialPort
import TemplateStore

/// `fpmod doctor`'s whole run as one call, for any front end: gathers the facts of this machine
/// (board, UART, console, gettys, groups, GPIO chips, the port, the store), talks to the module
/// the options name (or a simulator), and has `DoctorChecks` judge them. Reads only: nothing
/// is written, paired or created.
public enum Doctor {
    /// What to examine.
    public struct Request: Sendable {
        /// How to reach the module (and where the store is: `storeDatabase`, `storeKey`).
        public var reader: ReaderOptions
        /// The port named on the command line (or FPMOD_PORT); nil: the board preset's port is
        /// checked without talking to it.
        public var port: String?
        /// Whether the password came from the command line (said in the report).
        public var passwordGiven = false

        public init(reader: ReaderOptions, port: String?) {
            self.reader = reader
            self.port = port
        }
    }

    /// The checks, in the checklist's order.
    public static func examine(_ request: Request) -> [DoctorCheck] {
        var facts = SystemFacts.gather()
        let board = PiModel(deviceTreeModel: facts.deviceTreeModel)
        let database = request.reader.storeDatabase ?? "", key = request.reader.storeKey ?? ""
        facts.store = SystemFacts.store(databasePath: database, keyPath: key, describe: describe)
        facts.spi.requestedDevice = request.reader.spiDevice
        let identity = pairedIdentity(database: database, key: key, facts.store)

        if request.reader.simulator != nil {
            let (probe, devicePath) = connect(request, identity: identity)
            if let devicePath {
                facts.port = PortFacts(path: devicePath, resolvedPath: devicePath, source: .simulator, node: nil, open: .simulated)
            }
            facts.module = probe
        } else if let path = request.port {
            facts.port = SystemFacts.port(path: path, source: .commandLine)
            if facts.port?.open == .opened {
                request.reader.progress("Talking to the module on \(path) (a silent module takes about 30 s: every baud rate is tried)…")
                facts.module = connect(request, identity: identity).probe
            } else {
                facts.module = .portUnavailable
            }
        } else if board.isSupportedPi,
                  let preset = BoardPreset.builtIn.first(where: { $0.name == board.presetName }) {
            // Check the port the preset would use, without talking to whatever is wired to it.
            facts.port = SystemFacts.port(path: preset.serialPort, source: .boardPreset)
        }
        if let keypad = request.reader.config?.keypad { facts.keypad = keypadFacts(keypad.device) }
        if let config = request.reader.config { facts.wiegandLines = wiegandLineFacts(config) }
        if let nfc = request.reader.config?.nfc { facts.nfcReader = nfcReaderFacts(nfc) }
        return DoctorChecks.evaluate(facts)
    }

    /// The Wiegand lines the config names, beside the door's own (its board preset's with the
    /// config's overrides); nil without a `wiegand` or `wiegandOut` section.
    static func wiegandLineFacts(_ config: LockConfig) -> WiegandLineFacts? {
        var facts = WiegandLineFacts()
        if let reader = config.wiegand {
            facts.wiegand += [.init(key: "wiegand.d0", line: reader.d0), .init(key: "wiegand.d1", line: reader.d1)]
        }
        if let panel = config.wiegandOut {
            facts.wiegand += [.init(key: "wiegandOut.d0", line: panel.d0), .init(key: "wiegandOut.d1", line: panel.d1)]
        }
        guard !facts.wiegand.isEmpty else { return nil }
        if let preset = try? BoardPreset.load(name: config.board) {
            for (role, line) in config.resolvedLines(preset: preset, family: nil).sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
                facts.door.append(.init(key: role.rawValue, line: String(line.offset), alias: line.name))
            }
        }
        return facts
    }

    /// The configured NFC reader, as `NFCReader.open` finds it (opened and closed at once: no
    /// card is read): its own checks of the node come back as typed errors, so the verdicts
    /// are the reader's, not a second copy of them.
    static func nfcReaderFacts(_ section: LockConfig.NFCReaderSection) -> NFCReaderFacts {
        let connection = try? NFCConnection(section.device)
        var facts = NFCReaderFacts(connstring: connection?.connstring ?? section.device, mode: section.mode.rawValue,
                                   path: connection?.path)
        if connection?.path != nil { facts.node = .present }
        do {
            let reader = try NFCReader.open(section.device, deadline: .now + .seconds(5))
            reader.close()
            facts.answer = .answered
        } catch .noSuchPort {
            facts.node = .missing
        } catch .notADevice {
            facts.node = .notADevice
        } catch .permissionDenied(let path) {
            let group = SystemFacts.node(path)?.group
            facts.node = .permissionDenied(group: group == "root" ? nil : group)
        } catch .inUse {
            facts.answer = .inUse
        } catch {
            facts.answer = .failed(error.description)
        }
        return facts
    }

    /// The configured keypad, looked at without grabbing it.
    static func keypadFacts(_ spec: String) -> KeypadFacts {
        var facts = KeypadFacts(spec: spec)
        facts.keypads = KeypadDevices.keypads().map(\.listed)
        guard let path = try? KeypadDevices.resolve(spec) else { return facts }
        facts.path = path
        switch KeypadDevices.inspect(path) {
        case .keypad(let name):
            facts.name = name
        case .notAKeypad(let name):
            facts.name = name
            facts.problem = "it has no digit keys, so it is not a keypad"
        case .unreadable(let error):
            facts.problem = error.description
            if case .permissionDenied = error { facts.permissionDenied = true }
        }
        return facts
    }

    /// Opens the module as every command does (baud probing, VfyPwd, family detection) and reads
    /// what the checklist reports; returns the device path the session used.
    private static func connect(_ request: Request, identity: ModuleIdentity?) -> (probe: ModuleProbe, devicePath: String?) {
        let configuredBaud = request.reader.baudRate ?? BaudRate.factoryDefault
        let session: ModuleSession
        do {
            // With a pairing, the one opener's identity check: a reset or foreign module is
            // named as such in about a second, not reported as a wiring fault after a baud probe.
            if identity != nil, let database = request.reader.storeDatabase, let key = request.reader.storeKey,
               let store = try? TemplateStore(readingOnly: database, keyPath: key) {
                let (opened, finding) = try ModuleSession.openChecked(request.reader, store: store)
                if case .reset = finding { opened.close(); return (.failed(.notPaired(finding.description)), nil) }
                if case .swapped = finding { opened.close(); return (.failed(.notPaired(finding.description)), nil) }
                session = opened
            } else {
                session = try ModuleSession.open(request.reader, identity: identity)
            }
        } catch {
            return (.failed(failure(error, port: request.port, configuredBaud: configuredBaud)), nil)
        }
        defer { session.close() }
        let module = session.module
        let passwordSource: ModuleReport.PasswordSource =
            module.password == 0 ? .factory : request.passwordGiven ? .commandLine : .pairing
        let family = module.family ?? .r30x
        let report = ModuleReport(
            familyName: family.profile.displayName, familyCode: family.rawValue,
            port: session.simulator?.devicePath ?? request.port ?? module.transport.description,
            configuredBaud: configuredBaud,
            answeredBaud: module.answeredBaudRate ?? configuredBaud,
            address: module.address, passwordSource: passwordSource,
            capacity: module.capacity,
            templatesUsed: try? module.templateCount())
        return (.answered(report), session.simulator?.devicePath)
    }

    private static func failure(_ error: any Error, port: String?, configuredBaud: Int) -> ModuleFailure {
        guard let error = error as? ModuleError else { return .other(describe(error)) }
        switch error {
        case let .noAnswer(answering, rates):
            // The error names the transport with its last baud rate; the path alone reads better.
            return .silent(port: port ?? answering, triedBaudRates: rates)
        case .timeout:
            return .silent(port: port ?? "the port", triedBaudRates: [configuredBaud])
        case let .module(_, code, _) where code.rawValue == 0x13 || code.rawValue == 0x21:
            return .passwordRequired(code: code.rawValue)
        case let .wrongAddress(_, expected, seen):
            return .wrongAddress(expected: expected, seen: seen)
        case .corruptedReply:
            return .corrupted(error.description)
        default:
            return .other(error.description)
        }
    }

    /// The pairing, read again for the module session (the facts keep only what is printed).
    private static func pairedIdentity(database: String, key: String, _ facts: StoreFacts) -> ModuleIdentity? {
        guard case .paired = facts.pairing else { return nil }
        return try? TemplateStore(readingOnly: database, keyPath: key).moduleIdentity()
    }

    static func describe(_ error: any Error) -> String {
        String(describing: error)
    }
}
