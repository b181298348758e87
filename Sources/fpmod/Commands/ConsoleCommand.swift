import ArgumentParsing
import ConsoleAuth
import DoorLock
import Foundation
import Posix
import PrintableText
import ServiceClient
import TemplateStore
import WebConsole

/// `fpmod console [setup-code | url]`: the web console alone against this door's store (the
/// service starts it itself when the config's `console.enabled` is true), the one-time code
/// that makes the first admin account, and the addresses with the certificate's fingerprint.
enum ConsoleCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        switch invocation.positional(0) {
        case nil: return try serve(invocation)
        case "setup-code": return try setupCode(invocation)
        case "url": return try url(invocation)
        case let other?:
            throw CommandFailure(.usage, "\"\(Printable.escaped(String(other.prefix(40))))\" is not a console action; use `fpmod console` (run it), `fpmod console setup-code` or `fpmod console url`.")
        }
    }

    /// The config the console serves: --config FILE, else the installed one, else the defaults.
    static func configuration(_ invocation: Invocation) throws -> (config: LockConfig, path: String?) {
        guard let path = invocation.parsed.string("config") ?? LockConfig.installedPathIfPresent else { return (LockConfig(), nil) }
        do { return (try LockConfig.load(path: path), path) } catch {
            throw CommandFailure(.config, "\(error)")
        }
    }

    static func setupCode(_ invocation: Invocation) throws -> ExitCode {
        let store = try invocation.openStore(create: true)
        let setup = SetupCode(store: store)
        guard try setup.needed() else {
            throw CommandFailure(.denied, "The console is set up already (it has accounts); sign in, or have an admin add an account on its accounts page.")
        }
        let code = try setup.issue()
        let (config, _) = try configuration(invocation)
        let urls = ConsoleHost.urls(config.console, port: config.console.port)
        let enabled = config.console.enabled ? "" : "\nThe console is not enabled in the config yet: set \"console\": {\"enabled\": true} and restart the service, or run `fpmod console`."
        invocation.emit("""
            Setup code (works once, for 24 hours): \(code)
            Open \(urls.first ?? "https://localhost:\(config.console.port)/") and type it with the first admin's name and password.\(enabled)
            """, json: ["code": .string(code), "urls": .array(urls.map { .string($0) }), "validHours": 24])
        return .ok
    }

    static func url(_ invocation: Invocation) throws -> ExitCode {
        let (config, _) = try configuration(invocation)
        let certificate = try ConsoleCertificate.loadOrCreate(config.console, storeDatabase: invocation.storePaths.database)
        let urls = ConsoleHost.urls(config.console, port: config.console.port)
        let lock = config.console.lockScreenPort.map { "http://127.0.0.1:\($0)/lock" }
        invocation.emit((urls.map { "Console: \($0)" } + [lock.map { "Lock screen (this machine only): \($0)" }].compactMap { $0 }
            + ["Certificate SHA-256: \(certificate.sha256Fingerprint)",
               "Compare it with the fingerprint your browser shows for the certificate before you accept it."]).joined(separator: "\n"),
                        json: ["urls": .array(urls.map { .string($0) }), "lockScreen": lock.map { .string($0) } ?? .null,
                               "sha256": .string(certificate.sha256Fingerprint), "certificate": .string(certificate.certificatePath)])
        return .ok
    }

    /// Runs until SIGTERM or SIGINT.
    static func serve(_ invocation: Invocation) throws -> ExitCode {
        let signals = try SignalWatcher(signals: [SIGTERM, SIGINT])
        let (config, path) = try configuration(invocation)
        let paths = invocation.storePaths
        let sockets = LockService.Options(config: config, environment: invocation.environment)
        let host = try ConsoleHost.start(config: config, configPath: path, storeDatabase: paths.database, storeKey: paths.key,
                                         eventsSocket: sockets.eventsSocket, environment: invocation.environment)
        defer { host.stop() }
        invocation.progress("fpmod console: " + host.summary)
        if try SetupCode(store: host.context.store).needed() {
            invocation.progress("No account yet: run `fpmod console setup-code` and open the console to make the first admin.")
        }
        _ = signals.waitForAny()
        return .ok
    }
}
