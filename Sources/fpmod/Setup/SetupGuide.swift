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
    private static let steps = 6

    init(invocation: Invocation, prompter: SetupPrompter) {
        self.invocation = invocation
        self.prompter = prompter
    }

    mutating func run() throws {
        let store = try invocation.openStore(create: true)
        let paths = invocation.storePaths
        say("fpmod setup: the module, its pairing, the first admin, the config file.\nStore: \(paths.database) (key \(paths.key))")

        heading("the module's port")
        let link = try findModule(store: store)
        defer { link.stop() }
        let family: String?
        do {
            let administrator = try link.openAdministrator(store: store, unpaired: try unpairedCredentials())
            defer { link.close(administrator) }
            family = administrator.module.family?.rawValue

            heading("pairing")
            try pair(administrator, store: store)

            heading("the first administrator")
            let admin = try enrollAdmin(administrator, store: store, link: link)

            heading("the administrator's PIN")
            if let admin { try setPIN(for: admin, store: store) } else { say("  No new administrator; PINs stay as they are (change one with `fpmod pin NAME`).") }
        }

        heading("the board")
        let model = BoardDetection.model()
        let detected = BoardDetection.presetName(forModel: model)
        say("  " + (model.map { "This machine: \($0)." } ?? "No device-tree model here (not a Raspberry Pi?).")
            + " Presets: \(BoardDetection.builtInNames.joined(separator: ", ")), or a path to a preset file.")
        let board = prompter.ask("Board preset", default: detected)

        heading("the configuration file")
        let file = SetupConfigFile(board: board, serialPort: link.simulator == nil ? link.port : nil,
                                   baudRate: link.simulator == nil ? link.baudRate : nil, family: family,
                                   storeDatabase: Self.absolute(paths.database), storeKey: Self.absolute(paths.key))
        let path = try writeConfig(file)
        nextSteps(configPath: path)
    }

    // MARK: Steps

    private func findModule(store: TemplateStore) throws -> SetupModuleLink {
        let (address, password) = try credentialsForProbing(store)
        if invocation.parsed.flag("sim") {
            let link = try SetupModuleLink.simulated(invocation)
            say("  --sim: a simulated \(invocation.parsed.string("sim-profile") ?? "r307") module on \(link.port).")
            if case .success(let answer) = PortDiscovery.probe(link.port, address: address, password: password, baudRate: nil) {
                say("  ✔ Found: \(answer.summary).")
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
                return SetupModuleLink(port: answer.port, baudRate: answer.baudRate, simulator: nil)
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
        return SetupModuleLink(port: answer.port, baudRate: answer.baudRate, simulator: nil)
    }

    private func pair(_ administrator: Administrator, store: TemplateStore) throws {
        if let identity = try store.moduleIdentity() {
            say("  Already paired with this \(identity.family) module (\(identity.capacity) slots); every open re-checks it.")
            return
        }
        say("  Pairing gives the module a random password and address, kept encrypted in the store: a module swapped\n"
            + "  in by someone else, or this one moved to another reader, will not answer.")
        guard prompter.confirm("Pair the module now?", default: true) else {
            say("  Not paired; run `fpmod pair` later.")
            return
        }
        let identity = try administrator.pair()
        say("  ✔ Paired the \(identity.family) module (\(identity.capacity) slots).")
    }

    /// Returns the name of a newly enrolled admin, nil when none was enrolled.
    private func enrollAdmin(_ administrator: Administrator, store: TemplateStore, link: SetupModuleLink) throws -> String? {
        let admins = try store.users().filter { $0.role == .admin }
        if !admins.isEmpty {
            say("  Administrators already enrolled: \(admins.map(\.name).joined(separator: ", ")).")
            guard prompter.confirm("Enroll another administrator?", default: false) else { return nil }
        }
        let name = prompter.ask("Administrator's user name", default: "admin")
        let label = prompter.ask("Which finger (right-index, left-thumb…)", default: "right-index")
        // The simulated finger touches once per capture, lifting in between.
        link.simulator?.touch("\(name)-\(label)", times: 1000)
        say("  Touch the sensor with \(name)'s \(label) when asked, and lift between touches.")
        let result = try administrator.enroll(user: name, label: label, captures: 2, admin: true) { step in
            StandardStreams.writeError("    \(step.description)\n")
        }
        link.simulator?.lift()
        say("  ✔ enroll-completed: \(name)'s \(label) in slot \(result.slot)" + (result.newUser ? " (new administrator)." : "."))
        return name
    }

    private func setPIN(for user: String, store: TemplateStore) throws {
        say("  The PIN opens the door when fingerprints are locked out, and clears the lockout (\(SecretRule.pin.summary)).")
        if let fromEnvironment = invocation.environment["FPMOD_PIN"], !fromEnvironment.isEmpty {
            if let problem = SecretRule.pin.problem(fromEnvironment) {
                throw CommandFailure(.usage, "FPMOD_PIN is not accepted: \(problem); nothing was set. Choose a PIN of \(SecretRule.pin.summary).")
            }
            try StoreAdministration.setPIN(store, user: user, pin: fromEnvironment)
            say("  ✔ Set \(user)'s PIN from FPMOD_PIN.")
            return
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
            do {
                try StoreAdministration.setPIN(store, user: user, pin: pin)
                say("  ✔ Set \(user)'s PIN (stored as a memory-hard hash).")
                return
            } catch let error as StoreAdministration.PINError {
                say("  \(error.description).")
            }
        }
        let pin = Self.randomPIN()
        try StoreAdministration.setPIN(store, user: user, pin: pin)
        say("  ✔ \(user)'s PIN is \(pin) — write it down now, it is shown only once (change it with `fpmod pin \(user)`).")
    }

    private func writeConfig(_ file: SetupConfigFile) throws -> String {
        let path = invocation.parsed.string("config") ?? SetupConfigFile.defaultPath()
        let text = try file.text()
        let problems = SetupConfigFile.problems(in: text, source: path)
        guard problems.isEmpty else {
            throw CommandFailure(.config, "The configuration would not be valid:\n- " + problems.joined(separator: "\n- ")
                                 + "\nRun fpmod setup again and pick another board preset.")
        }
        let chosen = prompter.ask("Write the configuration to", default: path)
        if FileManager.default.fileExists(atPath: chosen),
           !prompter.confirm("\(chosen) exists. Replace it?", default: false) {
            say("  Kept the existing \(chosen). What setup would have written:\n" + text.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            return chosen
        }
        try SetupConfigFile.write(text, to: chosen)
        say("  ✔ Wrote \(chosen) (checked like `fpmod config check`).")
        return chosen
    }

    private func nextSteps(configPath: String) {
        let sim = invocation.parsed.flag("sim") ? "--sim --sim-gpio " : ""
        say("""

            Next steps:
              fpmod config check \(configPath)
                  check the file again after editing it (GPIO lines, relay pulse, hooks)
              fpmod enroll NAME
                  enroll everyone else; fpmod list shows them
              sudo systemctl enable --now fpmod
                  run the lock as a service (tools/install.sh installs the unit)
              fpmod \(sim)--config \(configPath) run
                  or run it in the foreground and watch its events
            """)
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

    /// The pairing's credentials when the store has one (setup run again), else the command line's or the factory's.
    private func credentialsForProbing(_ store: TemplateStore) throws -> (address: UInt32, password: UInt32) {
        if let identity = try store.moduleIdentity() { return (identity.address, identity.password) }
        return try unpairedCredentials()
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
