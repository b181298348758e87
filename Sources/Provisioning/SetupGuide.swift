import Administration
import FingerprintProtocol
import Foundation
import TemplateStore
import UserPrompts

/// What a finished first run did: for the front end's last words (the CLI's "Next steps").
public struct SetupOutcome: Equatable, Sendable {
    /// The configuration file written, or kept when the person chose to keep it.
    public var configPath: String
    public var configWritten: Bool
    /// The administrator enrolled, with the finger's slot; nil when none was added.
    public var administrator: String?
    public var slot: Int?
    /// The pairing made now; nil when the store was paired already or the person said no.
    public var paired: ModuleIdentity?
}

/// `fpmod setup`'s first run, one step after the other: find the module, ask everything
/// (`SetupQuestions`, through whichever `Prompter` the front end brings), then change things —
/// the store is created, the admin enrolled, the PIN set, the config written, and the module
/// paired last. A refused answer thus leaves no store, no key and no module paired to a
/// password nobody has. Narration goes to `say`, one block per call, without a newline.
public struct SetupGuide {
    public static let stepCount = 7

    let settings: SetupSettings
    let prompter: any Prompter
    let say: (String) -> Void
    private var step = 0

    /// Runs the whole guide.
    @discardableResult
    public static func run(_ settings: SetupSettings, prompter: any Prompter,
                           say: @escaping (String) -> Void) throws -> SetupOutcome {
        var guide = SetupGuide(settings: settings, prompter: prompter, say: say)
        return try guide.run()
    }

    /// The questions a run would ask on this machine as it stands, in order, with an answer
    /// that shapes a later question taken at its default: what a console lays out before it
    /// starts the run. Nothing is created, probed or started.
    public static func questions(_ settings: SetupSettings) throws -> [Question] {
        let existing = FileManager.default.fileExists(atPath: settings.storeDatabase)
            ? try TemplateStore(readingOnly: settings.storeDatabase, keyPath: settings.storeKey) : nil
        let questions = SetupQuestions(settings: settings, store: existing,
                                       serialPort: settings.simulator == nil ? settings.port : nil,
                                       baudRate: settings.simulator == nil ? settings.baudRate : nil)
        var asked: [Question] = []
        if settings.simulator == nil, settings.port == nil, !settings.probeEveryPort {
            asked.append(questions.port(candidates: PortDiscovery.candidates(deviceDirectory: settings.deviceDirectory)))
        }
        var addsAdministrator = true
        if try existing?.users().contains(where: { $0.role == .admin }) == true {
            let another = questions.anotherAdministrator()
            asked.append(another)
            addsAdministrator = another.defaultAnswer == "yes"
        }
        if addsAdministrator {
            let name = questions.administratorName()
            asked += [name, questions.administratorFinger(of: try UserName(validating: name.defaultAnswer))]
            if settings.pin?.isEmpty ?? true { asked.append(questions.pin(for: try UserName(validating: name.defaultAnswer))) }
        }
        asked += [questions.board(default: BoardDetection.presetName(forModel: BoardDetection.model(path: settings.deviceTreeModel))),
                  questions.configPath()]
        if FileManager.default.fileExists(atPath: settings.configPath) { asked.append(questions.replaceConfig(at: settings.configPath)) }
        if try existing?.moduleIdentity() == nil { asked.append(questions.pairNow()) }
        return asked
    }

    mutating func run() throws -> SetupOutcome {
        let (database, key) = (settings.storeDatabase, settings.storeKey)
        say("fpmod setup: the module, its pairing, the first admin, the config file.\nStore: \(database) (key \(key))")
        // Setup run again reads the store it made; a first run makes one only once all is checked.
        let existing = FileManager.default.fileExists(atPath: database)
            ? try TemplateStore(databasePath: database, keyPath: key, create: false) : nil
        if existing == nil {
            let advice = "Run fpmod setup as root for /var/lib/fpmod and /etc/fpmod, or pass --store PATH and --key PATH."
            try SetupLocation.requireWritable(database, what: "the store", advice: advice)
            try SetupLocation.requireWritable(key, what: "the store's key", advice: advice)
        }
        let identity = try existing?.moduleIdentity()

        heading("the module's port")
        let link = try findModule(identity: identity)
        defer { link.stop() }
        let questions = SetupQuestions(settings: settings, store: existing,
                                       serialPort: link.simulator == nil ? link.port : nil,
                                       baudRate: link.simulator == nil ? link.baudRate : nil, family: link.family)

        heading("the first administrator")
        let admin = try administrator(questions, store: existing)
        heading("the administrator's PIN")
        let pin = try pin(questions, for: admin?.name)
        heading("the board")
        let board = try self.board(questions)
        heading("the configuration file")
        let (configPath, replaceConfig) = try configFile(questions)
        heading("pairing")
        let pairNow = try pairing(questions, identity: identity)

        heading("enrolling, the PIN, the configuration file and pairing")
        say("  Every answer is checked; now the changes.")
        let store = try existing ?? TemplateStore(databasePath: database, keyPath: key, create: true)
        let administrator = try link.openAdministrator(store: store, unpaired: unpairedCredentials)
        defer { link.close(administrator) }
        var outcome = SetupOutcome(configPath: configPath, configWritten: false)
        if let admin {
            outcome.administrator = admin.name.text
            outcome.slot = try enroll(admin, administrator, link: link)
            try setPIN(pin, for: admin.name, store: store, configPath: configPath)
        }
        var file = questions.configFile(board: board)
        file.family = administrator.module.family?.rawValue ?? link.family
        outcome.configWritten = try writeConfig(file, to: configPath, replacing: replaceConfig)
        if pairNow {
            let paired = try administrator.pair()
            say("  ✔ Paired the \(paired.family) module (\(paired.capacity) slots).")
            outcome.paired = paired
        }
        return outcome
    }

    // MARK: The questions

    /// The PIN as answered: none (no new administrator), given, or made up by the guide (shown
    /// once, after it is set).
    enum PINChoice {
        case none
        case typed(String, fromSettings: Bool)
        case madeUp(String)
    }

    private func administrator(_ questions: SetupQuestions, store: TemplateStore?) throws -> (name: UserName, label: FingerLabel)? {
        let existingAdmins = try store?.users().filter { $0.role == .admin }.map(\.name) ?? []
        if !existingAdmins.isEmpty {
            say("  Administrators already enrolled: \(existingAdmins.joined(separator: ", ")).")
            guard try prompter.answer(questions.anotherAdministrator()) == "yes" else { return nil }
        }
        let name = try UserName(validating: try prompter.answer(questions.administratorName()))
        let label = try FingerLabel(validating: try prompter.answer(questions.administratorFinger(of: name)))
        return (name, label)
    }

    private func pin(_ questions: SetupQuestions, for user: UserName?) throws -> PINChoice {
        guard let user else {
            say("  No new administrator; PINs stay as they are (change one with `fpmod pin NAME`).")
            return .none
        }
        say("  The PIN opens the door when fingerprints are locked out, and clears the lockout (\(SecretRule.pin.summary)).")
        if let given = settings.pin, !given.isEmpty {
            if let problem = SecretRule.pin.problem(given) {
                throw SetupError(.usage, "FPMOD_PIN is not accepted: \(problem); nothing was changed. Choose a PIN of \(SecretRule.pin.summary).")
            }
            say("  The PIN comes from FPMOD_PIN.")
            return .typed(given, fromSettings: true)
        }
        let question = questions.pin(for: user)
        guard let typed = try prompter.ask(question), !typed.isEmpty else { return .madeUp(Self.randomPIN()) }
        try question.check(typed)
        return .typed(typed, fromSettings: false)
    }

    private func board(_ questions: SetupQuestions) throws -> String {
        let model = BoardDetection.model(path: settings.deviceTreeModel)
        say("  " + (model.map { "This machine: \($0)." } ?? "No device-tree model here (not a Raspberry Pi?).")
            + " Presets: \(BoardDetection.builtInNames.joined(separator: ", ")), or a path to a preset file.")
        return try prompter.answer(questions.board(default: BoardDetection.presetName(forModel: model)))
    }

    /// Where the config goes, and whether an existing file there is replaced.
    private func configFile(_ questions: SetupQuestions) throws -> (path: String, replace: Bool) {
        let path = try prompter.answer(questions.configPath())
        if FileManager.default.fileExists(atPath: path), try prompter.answer(questions.replaceConfig(at: path)) != "yes" {
            return (path, false)
        }
        return (path, true)
    }

    private func pairing(_ questions: SetupQuestions, identity: ModuleIdentity?) throws -> Bool {
        if let identity {
            say("  Already paired with this \(identity.family) module (\(identity.capacity) slots); every open re-checks it.")
            return false
        }
        say("  Pairing gives the module a random password and address, kept encrypted in the store: a module swapped\n"
            + "  in by someone else, or this one moved to another reader, will not answer. It is done last, once\n"
            + "  everything else has worked; `fpmod unpair` undoes it.")
        let pair = try prompter.answer(questions.pairNow()) == "yes"
        if !pair { say("  Not paired; run `fpmod pair` later.") }
        return pair
    }

    // MARK: Finding the module

    private func findModule(identity: ModuleIdentity?) throws -> SetupModuleLink {
        let (address, password) = identity.map { ($0.address, $0.password) } ?? unpairedCredentials
        if let simulator = settings.simulator {
            let link = try SetupModuleLink.simulated(simulator)
            say("  --sim: a simulated \(simulator.profile) module on \(link.port).")
            if case .success(let answer) = PortDiscovery.probe(link.port, address: address, password: password, baudRate: nil) {
                say("  ✔ Found: \(answer.summary).")
                link.family = answer.family
            }
            return link
        }
        let baud = settings.baudRate
        if let given = settings.port {
            return try probeOrFail([given], address: address, password: password, baud: baud)
        }
        let candidates = PortDiscovery.candidates(deviceDirectory: settings.deviceDirectory)
        // A run that takes every default has nobody to ask: every likely port is tried. Otherwise
        // the guide asks, as a person helping would, showing what exists.
        if settings.probeEveryPort {
            guard !candidates.isEmpty else { throw Self.noPorts }
            return try probeOrFail(candidates, address: address, password: password, baud: baud)
        }
        say("  Serial devices here: " + (candidates.isEmpty ? "none found (a USB adapter not plugged in? the UART not enabled?)"
                                            : candidates.joined(separator: ", ")) + ".")
        let question = SetupQuestions(settings: settings, store: nil).port(candidates: candidates)
        for _ in 0..<3 {
            let port = try prompter.answer(question)
            guard !port.isEmpty else { break }
            switch PortDiscovery.probe(port, address: address, password: password, baudRate: baud) {
            case .success(let answer):
                say("  ✔ \(port): \(answer.summary)")
                return SetupModuleLink(port: answer.port, baudRate: answer.baudRate, simulator: nil, family: answer.family)
            case .failure(let error):
                say("  ✘ \(port): \(error)")
            }
        }
        throw SetupError(.unavailable, """
            No module answered on the ports tried. Check the wiring (module TX to the Pi's RX and RX to TX — swapped is \
            the most common fault), the module's power, and that no login console uses the port; then run fpmod setup \
            again (or fpmod --port PATH --baud N setup).
            """)
    }

    private static let noPorts = SetupError(.unavailable, """
        No serial port found (looked for /dev/serial0, ttyAMA0, ttyS0, ttyUSB*, ttyACM*). On a Raspberry Pi enable the \
        UART (raspi-config → Interface Options → Serial Port: no login shell, hardware yes) and reboot; with a USB \
        adapter plug it in. Or try everything without hardware: fpmod --sim setup.
        """)

    /// Probes each port; the first that answers is the module's (asked which, when several do).
    private func probeOrFail(_ candidates: [String], address: UInt32, password: UInt32, baud: Int?) throws -> SetupModuleLink {
        var answers: [PortDiscovery.Answer] = []
        for port in candidates {
            switch PortDiscovery.probe(port, address: address, password: password, baudRate: baud) {
            case .success(let answer):
                say("  ✔ \(port): \(answer.summary)")
                answers.append(answer)
            case .failure(let error):
                say("  ✘ \(port): \(error)")
            }
        }
        guard let first = answers.first else {
            throw SetupError(.unavailable, """
                No module answered on \(candidates.joined(separator: ", ")). Check the wiring (module TX to the Pi's RX and \
                RX to TX — swapped is the most common fault), the module's power, and that no login console uses the port; \
                then run fpmod setup again (or fpmod --port PATH --baud N setup).
                """)
        }
        let chosen = answers.count == 1 ? first.port
            : try prompter.answer(SetupQuestions(settings: settings, store: nil).answeringPort(answers.map(\.port)))
        let answer = answers.first { $0.port == chosen } ?? first
        if answer.port != chosen { say("  \(chosen) did not answer; using \(answer.port).") }
        return SetupModuleLink(port: answer.port, baudRate: answer.baudRate, simulator: nil, family: answer.family)
    }

    // MARK: The changes

    private func enroll(_ admin: (name: UserName, label: FingerLabel), _ administrator: Administrator,
                        link: SetupModuleLink) throws -> Int {
        // The simulated finger touches once per capture, lifting in between.
        link.simulator?.touch("\(admin.name)-\(admin.label)", times: 1000)
        say("  Touch the sensor with \(admin.name)'s \(admin.label) when asked, and lift between touches.")
        let result = try administrator.enroll(user: admin.name, label: admin.label, captures: 2, admin: true, prompter: prompter)
        link.simulator?.lift()
        say("  ✔ enroll-completed: \(admin.name)'s \(admin.label) in slot \(result.slot)" + (result.newUser ? " (new administrator)." : "."))
        return result.slot
    }

    private func setPIN(_ choice: PINChoice, for user: UserName, store: TemplateStore, configPath: String) throws {
        switch choice {
        case .none:
            return
        case .typed(let pin, let fromSettings):
            try StoreAdministration.setPIN(store, user: user.text, pin: pin)
            say(fromSettings ? "  ✔ Set \(user)'s PIN from FPMOD_PIN." : "  ✔ Set \(user)'s PIN (stored as a memory-hard hash).")
        case .madeUp(let pin):
            try StoreAdministration.setPIN(store, user: user.text, pin: pin)
            say("  ✔ \(user)'s PIN is \(pin) — write it down now, it is shown only once (change it with `\(settings.commandPrefix(configPath)) pin \(user)`).")
        }
    }

    /// Writes the config (checked like `config check`), or shows it when the person kept theirs.
    private func writeConfig(_ file: SetupConfigFile, to path: String, replacing: Bool) throws -> Bool {
        let text = try file.text()
        let problems = SetupConfigFile.problems(in: text, source: path)
        guard problems.isEmpty else {
            throw SetupError(.config, "The configuration would not be valid:\n- " + problems.joined(separator: "\n- ")
                             + "\nRun fpmod setup again and pick another board preset.")
        }
        if FileManager.default.fileExists(atPath: path), !replacing {
            say("  Kept the existing \(path). What setup would have written:\n" + text.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            return false
        }
        try SetupConfigFile.write(text, to: path)
        say("  ✔ Wrote \(path) (checked like `fpmod config check`).")
        return true
    }

    // MARK: Helpers

    private mutating func heading(_ title: String) {
        step += 1
        say("\nStep \(step) of \(Self.stepCount): \(title)")
    }

    private var unpairedCredentials: (address: UInt32, password: UInt32) {
        (settings.address ?? Frame.defaultAddress, settings.password ?? 0)
    }

    static func randomPIN() -> String {
        var generator = SystemRandomNumberGenerator()
        while true {
            let pin = (0..<6).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
            // The made-up PIN follows the rule a typed one must (no "000000").
            if SecretRule.pin.problem(pin) == nil { return pin }
        }
    }
}
