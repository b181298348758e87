import Administration
import Foundation
import Glibc
import TemplateStore
import UserPrompts

/// Every question `fpmod setup` asks, as data (`Question`): what is asked, its kind, its
/// default and the check that refuses a bad answer before anything changes — no store, key,
/// pairing, enrollment or config file comes from an answer that is then refused. The CLI asks
/// them on a terminal, a console on a page; both are held to the same checks.
public struct SetupQuestions: Sendable {
    public let settings: SetupSettings
    /// The store setup found (run again), whose fingers an answer must not repeat; nil on a
    /// fresh machine.
    public let store: TemplateStore?
    /// How the config file reaches the module: the board question checks the file it leads to.
    public var serialPort: String?
    public var baudRate: Int?
    public var family: String?

    public init(settings: SetupSettings, store: TemplateStore?, serialPort: String? = nil, baudRate: Int? = nil,
                family: String? = nil) {
        self.settings = settings
        self.store = store
        self.serialPort = serialPort
        self.baudRate = baudRate
        self.family = family
    }

    /// The keys, in the order a run asks (each only when it applies).
    public enum Key {
        public static let port = "port"
        public static let answeringPort = "port.answering"
        public static let anotherAdministrator = "admin.another"
        public static let administratorName = "admin.name"
        public static let administratorFinger = "admin.finger"
        public static let pin = "admin.pin"
        public static let board = "board"
        public static let configPath = "config.path"
        public static let replaceConfig = "config.replace"
        public static let pair = "pair"
    }

    /// Which port the module is on, when none is given: the serial devices here as choices.
    public func port(candidates: [String]) -> Question {
        Question(key: Key.port, prompt: "Which port is the module on? (a device above, or a path)",
                 kind: .choice(candidates, allowsOther: true), defaultAnswer: candidates.first ?? "")
    }

    /// Which of several ports that answered is the module's.
    public func answeringPort(_ ports: [String]) -> Question {
        Question(key: Key.answeringPort, prompt: "Which port? (\(ports.joined(separator: ", ")))",
                 kind: .choice(ports, allowsOther: false), defaultAnswer: ports.first ?? "")
    }

    /// Asked when the store has administrators already.
    public func anotherAdministrator() -> Question {
        .confirmation(key: Key.anotherAdministrator, prompt: "Enroll another administrator?", default: false)
    }

    public func administratorName() -> Question {
        Question(key: Key.administratorName, prompt: "Administrator's user name", kind: .text, defaultAnswer: "admin") {
            _ = try UserName(validating: $0)
        }
    }

    /// The finger `name` enrolls: a label the store does not have for that user already (asked
    /// before the finger is, so nobody touches the sensor for a refusal).
    public func administratorFinger(of name: UserName) -> Question {
        Question(key: Key.administratorFinger, prompt: "Which finger (right-index, left-thumb…)", kind: .text,
                 defaultAnswer: "right-index") { [store] answer in
            let label = try FingerLabel(validating: answer)
            if let store, try store.user(named: name.text) != nil,
               let same = try store.fingers(of: name.text).first(where: { $0.label == label.text }) {
                throw AdministrationError.fingerAlreadyEnrolled(user: name.text, label: label.text, slot: same.slot)
            }
        }
    }

    /// The administrator's PIN; left empty, setup makes one up (and shows it once).
    public func pin(for user: UserName) -> Question {
        .newSecret(key: Key.pin, what: "PIN", prompt: "PIN for \(user), \(SecretRule.pin.summary) (Enter: make one up)",
                   rule: .pin, mayBeEmpty: true)
    }

    /// The board preset, `detected` from this machine by default; checked with the config file
    /// it leads to (`config check`'s rules).
    public func board(default detected: String) -> Question {
        let file = configFileMaker()
        return Question(key: Key.board, prompt: "Board preset", kind: .choice(BoardDetection.builtInNames, allowsOther: true),
                        defaultAnswer: detected) { board in
            let problems = SetupConfigFile.problems(in: try file(board).text(), source: "the configuration")
            guard problems.isEmpty else {
                throw SetupError(.config, "the configuration with board \"\(board)\" would not be valid:\n- "
                                 + problems.joined(separator: "\n- ") + "\nPick another board preset.")
            }
        }
    }

    /// Where the configuration goes: a file this user can create there.
    public func configPath() -> Question {
        Question(key: Key.configPath, prompt: "Write the configuration to", kind: .text, defaultAnswer: settings.configPath) {
            try SetupLocation.requireWritable($0, what: "the configuration file",
                                              advice: "Run fpmod setup as root for /etc/fpmod, or give another path.")
        }
    }

    /// Asked when a file is at `path` already; no keeps it (what setup would write is shown).
    public func replaceConfig(at path: String) -> Question {
        .confirmation(key: Key.replaceConfig, prompt: "\(path) exists. Replace it?", default: false)
    }

    /// Asked when the store holds no pairing.
    public func pairNow() -> Question {
        .confirmation(key: Key.pair, prompt: "Pair the module now?", default: true)
    }

    /// The file setup writes for `board`, with what is known of the module.
    public func configFile(board: String) -> SetupConfigFile {
        configFileMaker()(board)
    }

    private func configFileMaker() -> @Sendable (String) -> SetupConfigFile {
        let (serialPort, baudRate, family) = (serialPort, baudRate, family)
        let (database, key) = (Self.absolute(settings.storeDatabase), Self.absolute(settings.storeKey))
        return { board in
            SetupConfigFile(board: board, serialPort: serialPort, baudRate: baudRate, family: family,
                            storeDatabase: database, storeKey: key)
        }
    }

    /// The config file names the store absolutely: the service does not run where setup did.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}

/// Whether a file can be created where a path points, checked before anything is written.
enum SetupLocation {
    /// The file, or else the nearest directory above it that exists, must be writable by this
    /// process (directories on the way are created later).
    static func requireWritable(_ path: String, what: String, advice: String) throws(SetupError) {
        guard !path.isEmpty else { throw SetupError(.usage, "No path given for \(what).") }
        var candidate = path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw SetupError(.usage, "\(path) is a directory; give a file path for \(what).") }
        } else {
            candidate = (path as NSString).deletingLastPathComponent
            while !candidate.isEmpty, candidate != "/", !FileManager.default.fileExists(atPath: candidate) {
                candidate = (candidate as NSString).deletingLastPathComponent
            }
            if candidate.isEmpty { candidate = "." }
        }
        if access(candidate, W_OK) != 0 {
            let reason = errno == EROFS ? "is on a read-only file system" : "is not writable by this user"
            throw SetupError(.permission, "Cannot create \(what) at \(path): \(candidate) \(reason). \(advice)")
        }
    }
}
