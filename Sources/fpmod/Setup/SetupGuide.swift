import Administration
import ArgumentParsing
import FingerprintProtocol
import Foundation
import Glibc
import TemplateStore

/// `fpmod setup`: the first-run guide, one step after the other. Steps and results go to stdout,
/// questions to stderr; every question has a default (see `SetupPrompter`).
struct SetupGuide {
    let invocation: Invocation
    let prompter: SetupPrompter
    private var step = 0
    private static let steps = 7

    init(invocation: Invocation, prompter: SetupPrompter) {
        self.invocation = invocation
        self.prompter = prompter
    }

    /// Asks everything first, checking each answer; then changes things: the store is created,
    /// the admin enrolled, the PIN set, the config written, and the module paired last. A refused
    /// answer thus leaves no store, no key and no module paired to a password nobody has.
    mutating func run() throws {
        let paths = invocation.storePaths
        say("fpmod setup: the module, its pairing, the first admin, the config file.\nStore: \(paths.database) (key \(paths.key))")
        // Setup run again reads the store it made; a first run makes one only once all is checked.
        let existing = FileManager.default.fileExists(atPath: paths.database) ? try invocation.openStore() : nil
        if existing == nil {
            let advice = "Run fpmod setup as root for /var/lib/fpmod and /etc/fpmod, or pass --store PATH and --key PATH."
            try SetupLocation.requireWritable(paths.database, what: "the store", advice: advice)
            try SetupLocation.requireWritable(paths.key, what: "the store's key", advice: advice)
        }
        let identity = try existing?.moduleIdentity()
        let questions = SetupQuestions(invocation: invocation, prompter: prompter, say: say)

        heading("the module's port")
        let link = try findModule(identity: identity)
        defer { link.stop() }

        var answers = SetupAnswers()
        heading("the first administrator")
        answers.admin = try questions.administrator(store: existing)
        heading("the administrator's PIN")
        answers.pin = try questions.pin(for: answers.admin?.name)
        heading("the board")
        answers.board = try questions.board { configFile(board: $0, family: link.family, link: link, paths: paths) }
        heading("the configuration file")
        (answers.configPath, answers.writeConfig) = try questions.configFile()
        heading("pairing")
        answers.pairNow = questions.pairing(identity: identity)

        heading("enrolling, the PIN, the configuration file and pairing")
        say("  Every answer is checked; now the changes.")
        let store = try existing ?? invocation.openStore(create: true)
        let administrator = try link.openAdministrator(store: store, unpaired: try unpairedCredentials())
        defer { link.close(administrator) }
        if let admin = answers.admin {
            try enroll(admin, administrator, link: link)
            try setPIN(answers.pin, for: admin.name, store: store, fpmod: commandPrefix(configPath: answers.configPath))
        }
        let file = configFile(board: answers.board, family: administrator.module.family?.rawValue ?? link.family,
                              link: link, paths: paths)
        try writeConfig(file, to: answers.configPath, replacing: answers.writeConfig)
        if answers.pairNow {
            let paired = try administrator.pair()
            say("  ✔ Paired the \(paired.family) module (\(paired.capacity) slots).")
        }
        nextSteps(configPath: answers.configPath)
    }

    // MARK: Steps

    private func configFile(board: String, family: String?, link: SetupModuleLink,
                            paths: (database: String, key: String)) -> SetupConfigFile {
        SetupConfigFile(board: board, serialPort: link.simulator == nil ? link.port : nil,
                        baudRate: link.simulator == nil ? link.baudRate : nil, family: family,
                        storeDatabase: Self.absolute(paths.database), storeKey: Self.absolute(paths.key))
    }

    private func findModule(identity: ModuleIdentity?) throws -> SetupModuleLink {
        let (address, password) = try identity.map { ($0.address, $0.password) } ?? unpairedCredentials()
        if invocation.parsed.flag("sim") {
            let link = try SetupModuleLink.simulated(invocation)
            say("  --sim: a simulated \(invocation.parsed.string("sim-profile") ?? "r307") module on \(link.port).")
            if case .success(let answer) = PortDiscovery.probe(link.port, address: address, password: password, baudRate: nil) {
                say("  ✔ Found: \(answer.summary).")
                link.family = answer.family
            }
            return link
        }
        let baud = try invocation.parsed.int("baud", range: 9600...115_200)
        if let given = invocation.parsed.string("port") {
            return try probeOrFail([given], address: address, password: password, baud: baud)
        }
        let candidates = PortDiscovery.candidates()
        // --defaults: no questions, every likely port is tried. Otherwise the guide asks, as a
        // person helping would, showing what exists.
        if prompter.mode == .acceptDefaults {
            guard !candidates.isEmpty else { throw Self.noPorts }
            return try probeOrFail(candidates, address: address, password: password, baud: baud)
        }
        say("  Serial devices here: " + (candidates.isEmpty ? "none found (a USB adapter not plugged in? the UART not enabled?)"
                                            : candidates.joined(separator: ", ")) + ".")
        for _ in 0..<3 {
            let port = prompter.ask("Which port is the module on? (a device above, or a path)", default: candidates.first ?? "")
            guard !port.isEmpty else { break }
            switch PortDiscovery.probe(port, address: address, password: password, baudRate: baud) {
            case .success(let answer):
                say("  ✔ \(port): \(answer.summary)")
                return SetupModuleLink(port: answer.port, baudRate: answer.baudRate, simulator: nil, family: answer.family)
            case .failure(let error):
                say("  ✘ \(port): \(error)")
            }
        }
        throw CommandFailure(.unavailable, """
            No module answered on the ports tried. Check the wiring (module TX to the Pi's RX and RX to TX — swapped is \
            the most common fault), the module's power, and that no login console uses the port; then run fpmod setup \
            again (or fpmod --port PATH --baud N setup).
            """)
    }

    private static let noPorts = CommandFailure(.unavailable, """
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
            throw CommandFailure(.unavailable, """
                No module answered on \(candidates.joined(separator: ", ")). Check the wiring (module TX to the Pi's RX and \
                RX to TX — swapped is the most common fault), the module's power, and that no login console uses the port; \
                then run fpmod setup again (or fpmod --port PATH --baud N setup).
                """)
        }
        let chosen = answers.count == 1 ? first.port
            : prompter.ask("Which port? (\(answers.map(\.port).joined(separator: ", ")))", default: first.port)
        let answer = answers.first { $0.port == chosen } ?? first
        if answer.port != chosen { say("  \(chosen) did not answer; using \(answer.port).") }
        return SetupModuleLink(port: answer.port, baudRate: answer.baudRate, simulator: nil, family: answer.family)
    }

    private func enroll(_ admin: (name: UserName, label: FingerLabel), _ administrator: Administrator,
                        link: SetupModuleLink) throws {
        // The simulated finger touches once per capture, lifting in between.
        link.simulator?.touch("\(admin.name)-\(admin.label)", times: 1000)
        say("  Touch the sensor with \(admin.name)'s \(admin.label) when asked, and lift between touches.")
        let result = try administrator.enroll(user: admin.name, label: admin.label, captures: 2, admin: true) { step in
            StandardStreams.writeError("    \(step.description)\n")
        }
        link.simulator?.lift()
        say("  ✔ enroll-completed: \(admin.name)'s \(admin.label) in slot \(result.slot)" + (result.newUser ? " (new administrator)." : "."))
    }

    private func setPIN(_ choice: SetupAnswers.PINChoice, for user: UserName, store: TemplateStore, fpmod: String) throws {
        switch choice {
        case .none:
            return
        case .typed(let pin, let fromEnvironment):
            try StoreAdministration.setPIN(store, user: user.text, pin: pin)
            say(fromEnvironment ? "  ✔ Set \(user)'s PIN from FPMOD_PIN." : "  ✔ Set \(user)'s PIN (stored as a memory-hard hash).")
        case .madeUp(let pin):
            try StoreAdministration.setPIN(store, user: user.text, pin: pin)
            say("  ✔ \(user)'s PIN is \(pin) — write it down now, it is shown only once (change it with `\(fpmod) pin \(user)`).")
        }
    }

    private func writeConfig(_ file: SetupConfigFile, to path: String, replacing: Bool) throws {
        let text = try file.text()
        let problems = SetupConfigFile.problems(in: text, source: path)
        guard problems.isEmpty else {
            throw CommandFailure(.config, "The configuration would not be valid:\n- " + problems.joined(separator: "\n- ")
                                 + "\nRun fpmod setup again and pick another board preset.")
        }
        if FileManager.default.fileExists(atPath: path), !replacing {
            say("  Kept the existing \(path). What setup would have written:\n" + text.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            return
        }
        try SetupConfigFile.write(text, to: path)
        say("  ✔ Wrote \(path) (checked like `fpmod config check`).")
    }

    /// Each line starting with `fpmod` is a command to copy as it is (a test runs every one);
    /// NAME is the only thing to replace.
    private func nextSteps(configPath: String) {
        let sim = invocation.parsed.flag("sim")
        let fpmod = commandPrefix(configPath: configPath)
        var steps = [
            ("fpmod config check " + Self.shellQuoted(configPath), "check the file again after editing it (GPIO lines, relay pulse, hooks)"),
            ("\(fpmod) enroll NAME", "enroll everyone else (NAME: ASCII letters, digits, '.', '_', '-' and '@')"),
            ("\(fpmod) list", "show who is enrolled"),
        ]
        if !sim && configPath == RunCommand.defaultConfigPath {
            steps.append(("sudo systemctl enable --now fpmod", "run the lock as a service (tools/install.sh installs the unit)"))
        }
        steps.append(("\(fpmod) run" + (sim ? " --sim-gpio" : ""),
                      (steps.count > 3 ? "or run it" : "run the lock") + " in the foreground and watch its events (Ctrl-C stops it)"))
        say("\nNext steps:\n" + steps.map { "  \($0.0)\n      \($0.1)" }.joined(separator: "\n"))
    }

    /// `fpmod [--sim] [--config FILE]`: how the printed commands reach this store and module.
    private func commandPrefix(configPath: String) -> String {
        "fpmod" + (invocation.parsed.flag("sim") ? " --sim" : "")
            + (configPath == RunCommand.defaultConfigPath ? "" : " --config " + Self.shellQuoted(configPath))
    }

    /// A path as a shell reads it back: as it is when that is safe, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:@%,")
        if !text.isEmpty, text.allSatisfy(plain.contains) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    // MARK: Helpers

    private mutating func heading(_ title: String) {
        step += 1
        say("\nStep \(step) of \(Self.steps): \(title)")
    }

    private func say(_ text: String) {
        StandardStreams.writeOutput(text + "\n")
    }

    private func unpairedCredentials() throws -> (address: UInt32, password: UInt32) {
        (try invocation.parsed.hexUInt32("address") ?? Frame.defaultAddress, try invocation.parsed.hexUInt32("password") ?? 0)
    }

    static func randomPIN() -> String {
        var generator = SystemRandomNumberGenerator()
        while true {
            let pin = (0..<6).map { _ in String(Int.random(in: 0...9, using: &generator)) }.joined()
            // The made-up PIN follows the rule a typed one must (no "000000").
            if SecretRule.pin.problem(pin) == nil { return pin }
        }
    }

    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    }
}
