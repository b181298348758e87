import ArgumentParsing
import DoorLock
import Foundation
import Provisioning

/// `fpmod setup [--defaults]`: the first-run guide (`SetupGuide` in Provisioning), asked on the
/// terminal. Enter accepts each default; --defaults, or answers piped on stdin, make it
/// scriptable. Steps and results go to stdout, questions to stderr.
enum SetupCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let settings = try settings(invocation)
        let say = { (text: String) in StandardStreams.writeOutput(text + "\n") }
        let prompter = TerminalPrompts(.guide(say: say), acceptDefaults: invocation.parsed.flag("defaults"))
        let outcome = try SetupGuide.run(settings, prompter: prompter, say: say)
        say(nextSteps(configPath: outcome.configPath, sim: invocation.parsed.flag("sim")))
        return .ok
    }

    /// The guide's settings from the command line and environment.
    static func settings(_ invocation: Invocation) throws -> SetupSettings {
        let parsed = invocation.parsed
        let (database, key) = invocation.storePaths
        var settings = SetupSettings(
            storeDatabase: database, storeKey: key,
            configPath: parsed.string("config")
                ?? SetupConfigFile.defaultPath(environment: invocation.environment, installed: LockConfig.installedPath))
        if parsed.flag("sim") {
            settings.simulator = .init(profile: parsed.string("sim-profile") ?? "r307", statePath: invocation.simulatorStatePath)
        }
        settings.port = parsed.string("port")
        settings.baudRate = try parsed.int("baud", range: 9600...115_200)
        settings.address = try parsed.hexUInt32("address")
        settings.password = try parsed.hexUInt32("password")
        settings.pin = invocation.environment["FPMOD_PIN"]
        settings.probeEveryPort = parsed.flag("defaults")
        let sim = parsed.flag("sim")
        settings.commandPrefix = { commandPrefix(configPath: $0, sim: sim) }
        return settings
    }

    /// Each line starting with `fpmod` is a command to copy as it is (a test runs every one);
    /// NAME is the only thing to replace.
    static func nextSteps(configPath: String, sim: Bool) -> String {
        let fpmod = commandPrefix(configPath: configPath, sim: sim)
        var steps = [
            ("fpmod config check " + shellQuoted(configPath), "check the file again after editing it (GPIO lines, relay pulse, hooks)"),
            ("\(fpmod) enroll NAME", "enroll everyone else (NAME: ASCII letters, digits, '.', '_', '-' and '@')"),
            ("\(fpmod) list", "show who is enrolled"),
        ]
        if !sim && configPath == LockConfig.installedPath {
            steps.append(("sudo systemctl enable --now fpmod", "run the lock as a service (tools/install.sh installs the unit)"))
        }
        steps.append(("\(fpmod) run" + (sim ? " --sim-gpio" : ""),
                      (steps.count > 3 ? "or run it" : "run the lock") + " in the foreground and watch its events (Ctrl-C stops it)"))
        return "\nNext steps:\n" + steps.map { "  \($0.0)\n      \($0.1)" }.joined(separator: "\n")
    }

    /// `fpmod [--sim] [--config FILE]`: how the printed commands reach this store and module.
    static func commandPrefix(configPath: String, sim: Bool) -> String {
        "fpmod" + (sim ? " --sim" : "") + (configPath == LockConfig.installedPath ? "" : " --config " + shellQuoted(configPath))
    }

    /// A path as a shell reads it back: as it is when that is safe, else in single quotes.
    static func shellQuoted(_ text: String) -> String {
        let plain = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+:@%,")
        if !text.isEmpty, text.allSatisfy(plain.contains) { return text }
        return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
