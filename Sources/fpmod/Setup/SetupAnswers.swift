import Administration
import ArgumentParsing
import Foundation
import Glibc
import TemplateStore

/// Everything `fpmod setup` asks, checked as it is answered and before anything changes: no
/// store, key, pairing, enrollment or config file comes from an answer that is then refused.
/// On a terminal a refused answer is asked again; piped answers (one per line) and --defaults
/// stop at the first refusal, so a script never has its later answers read as the wrong ones.
struct SetupAnswers {
    /// The administrator to enroll; nil when the store has admins and no other is wanted.
    var admin: (name: UserName, label: FingerLabel)?
    var pin: PINChoice = .none
    var board = ""
    var configPath = ""
    /// False: an existing config file is kept (what setup would write is shown instead).
    var writeConfig = true
    var pairNow = false

    enum PINChoice {
        case none
        case typed(String, fromEnvironment: Bool)
        /// Made up by the guide; shown once, after it is set.
        case madeUp(String)
    }
}

/// The questions, one method each, in the order the guide asks them.
struct SetupQuestions {
    let invocation: Invocation
    let prompter: SetupPrompter
    let say: (String) -> Void

    /// Asks for an answer until `check` accepts it: three times on a terminal, once otherwise.
    func checked<T>(_ question: String, default defaultValue: String, _ check: (String) throws -> T) throws -> T {
        let attempts = prompter.mode == .terminal ? 3 : 1
        for attempt in 1...attempts {
            let answer = prompter.ask(question, default: defaultValue)
            do {
                return try check(answer)
            } catch {
                guard attempt < attempts else { throw error }
                say("  Not accepted: \(ErrorReport.message(for: error)) Once more.")
            }
        }
        preconditionFailure("the last attempt returns or throws")
    }

    /// `store`: the store setup found (run again), whose fingers an answer must not repeat.
    func administrator(store: TemplateStore?) throws -> (name: UserName, label: FingerLabel)? {
        let existingAdmins = try store?.users().filter { $0.role == .admin }.map(\.name) ?? []
        if !existingAdmins.isEmpty {
            say("  Administrators already enrolled: \(existingAdmins.joined(separator: ", ")).")
            guard prompter.confirm("Enroll another administrator?", default: false) else { return nil }
        }
        let name = try checked("Administrator's user name", default: "admin") { try UserName(validating: $0) }
        let label = try checked("Which finger (right-index, left-thumb…)", default: "right-index") { answer in
            let label = try FingerLabel(validating: answer)
            if let store, try store.user(named: name.text) != nil,
               let same = try store.fingers(of: name.text).first(where: { $0.label == label.text }) {
                throw AdministrationError.fingerAlreadyEnrolled(user: name.text, label: label.text, slot: same.slot)
            }
            return label
        }
        return (name, label)
    }

    func pin(for user: UserName?) throws -> SetupAnswers.PINChoice {
        guard let user else {
            say("  No new administrator; PINs stay as they are (change one with `fpmod pin NAME`).")
            return .none
        }
        say("  The PIN opens the door when fingerprints are locked out, and clears the lockout (\(SecretRule.pin.summary)).")
        if let fromEnvironment = invocation.environment["FPMOD_PIN"], !fromEnvironment.isEmpty {
            if let problem = SecretRule.pin.problem(fromEnvironment) {
                throw CommandFailure(.usage, "FPMOD_PIN is not accepted: \(problem); nothing was changed. Choose a PIN of \(SecretRule.pin.summary).")
            }
            say("  The PIN comes from FPMOD_PIN.")
            return .typed(fromEnvironment, fromEnvironment: true)
        }
        for _ in 0..<3 {
            guard let pin = prompter.secret("PIN for \(user), \(SecretRule.pin.summary) (Enter: make one up)") else { break }
            if let problem = SecretRule.pin.problem(pin) {
                say("  Not accepted: \(problem); once more.")
                continue
            }
            guard prompter.secret("The same PIN again") == pin else {
                say("  The two PINs differ; once more.")
                continue
            }
            return .typed(pin, fromEnvironment: false)
        }
        return .madeUp(SetupGuide.randomPIN())
    }

    /// The preset, checked with the config file it leads to (`config check`'s rules).
    func board(configFile: (String) -> SetupConfigFile) throws -> String {
        let model = BoardDetection.model()
        let detected = BoardDetection.presetName(forModel: model)
        say("  " + (model.map { "This machine: \($0)." } ?? "No device-tree model here (not a Raspberry Pi?).")
            + " Presets: \(BoardDetection.builtInNames.joined(separator: ", ")), or a path to a preset file.")
        return try checked("Board preset", default: detected) { board in
            let problems = SetupConfigFile.problems(in: try configFile(board).text(), source: "the configuration")
            guard problems.isEmpty else {
                throw CommandFailure(.config, "the configuration with board \"\(board)\" would not be valid:\n- "
                                     + problems.joined(separator: "\n- ") + "\nPick another board preset.")
            }
            return board
        }
    }

    /// Where the config goes, and whether an existing file there is replaced.
    func configFile() throws -> (path: String, write: Bool) {
        let suggested = invocation.parsed.string("config") ?? SetupConfigFile.defaultPath()
        let path = try checked("Write the configuration to", default: suggested) { path in
            try SetupLocation.requireWritable(path, what: "the configuration file",
                                              advice: "Run fpmod setup as root for /etc/fpmod, or give another path.")
            return path
        }
        if FileManager.default.fileExists(atPath: path), !prompter.confirm("\(path) exists. Replace it?", default: false) {
            return (path, false)
        }
        return (path, true)
    }

    func pairing(identity: ModuleIdentity?) -> Bool {
        if let identity {
            say("  Already paired with this \(identity.family) module (\(identity.capacity) slots); every open re-checks it.")
            return false
        }
        say("  Pairing gives the module a random password and address, kept encrypted in the store: a module swapped\n"
            + "  in by someone else, or this one moved to another reader, will not answer. It is done last, once\n"
            + "  everything else has worked; `fpmod unpair` undoes it.")
        let pair = prompter.confirm("Pair the module now?", default: true)
        if !pair { say("  Not paired; run `fpmod pair` later.") }
        return pair
    }
}

/// Whether a file can be created where a path points, checked before anything is written.
enum SetupLocation {
    /// The file, or else the nearest directory above it that exists, must be writable by this
    /// process (directories on the way are created later).
    static func requireWritable(_ path: String, what: String, advice: String) throws {
        guard !path.isEmpty else { throw CommandFailure(.usage, "No path given for \(what).") }
        var candidate = path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw CommandFailure(.usage, "\(path) is a directory; give a file path for \(what).") }
        } else {
            candidate = (path as NSString).deletingLastPathComponent
            while !candidate.isEmpty, candidate != "/", !FileManager.default.fileExists(atPath: candidate) {
                candidate = (candidate as NSString).deletingLastPathComponent
            }
            if candidate.isEmpty { candidate = "." }
        }
        if access(candidate, W_OK) != 0 {
            let reason = errno == EROFS ? "is on a read-only file system" : "is not writable by this user"
            throw CommandFailure(.permission, "Cannot create \(what) at \(path): \(candidate) \(reason). \(advice)")
        }
    }
}
