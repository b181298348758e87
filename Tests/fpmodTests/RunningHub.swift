import Foundation
import Glibc
import Testing
import TestSupport

/// `fpmod hub serve` as a real process on a real PostgreSQL (migrated, empty), listening on a
/// loopback port of its own, for the tests of the hub and of doors joining it.
final class RunningHub {
    let server: TemporaryPostgres
    let database: String
    /// The hub's administrator: `fpmod hub …` with the database in its environment.
    let cli: CLI
    let directory: String
    private(set) var process: LoggedProcess
    let base: String
    let port: String
    /// The fleet authority's SHA-256, as `fpmod hub serve` prints it.
    let authoritySHA256: String
    private var launches = 0

    var authorityPath: String { directory + "/authority.pem" }

    init() throws {
        server = try TemporaryPostgres()
        database = try server.newDatabase("fleet")
        cli = CLI()
        cli.environment["FPMOD_HUB_DATABASE"] = database
        let migrated = try cli.run(["hub", "migrate"])
        try #require(migrated.status == 0, "\(migrated.stderr)")
        directory = cli.directory + "/hub"
        let (process, port, fingerprint) = try Self.launch(cli, directory: directory, port: "0", log: cli.directory + "/hub.log")
        self.process = process
        self.port = port
        base = "https://127.0.0.1:\(port)"
        authoritySHA256 = fingerprint
    }

    /// `fpmod hub serve` on `port` (0: any), once it listens: the process, its port, the authority's fingerprint.
    private static func launch(_ cli: CLI, directory: String, port: String, log: String) throws -> (LoggedProcess, String, String) {
        let process = try LoggedProcess(cli, arguments: ["hub", "serve", "--listen", "127.0.0.1:\(port)", "--names", "localhost,127.0.0.1",
                                                         "--dir", directory], logPath: log)
        let deadline = ContinuousClock.now + .seconds(60)
        while process.isRunning, ContinuousClock.now < deadline {
            let text = process.log
            if let range = text.range(of: #"https://127\.0\.0\.1:(\d+)/"#, options: .regularExpression),
               let port = text[range].split(separator: ":").last.map({ String($0.dropLast()) }),
               let fingerprint = text.range(of: #"SHA-256 [0-9A-Fa-f:]+"#, options: .regularExpression).map({ String(text[$0].dropFirst(8)) }) {
                return (process, port, fingerprint)
            }
            usleep(50_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        throw HubDidNotStart(log: process.log)
    }

    /// Kills the hub at once (SIGKILL, as a crash would) and starts it again on the same port,
    /// with the same database and authority.
    func crashAndRestart() throws {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        launches += 1
        let log = cli.directory + "/hub.\(launches).log"
        // The port may linger a moment after a kill; try again for a few seconds.
        var lastError: (any Error)?
        for _ in 0..<20 {
            do {
                (process, _, _) = try Self.launch(cli, directory: directory, port: port, log: log)
                return
            } catch {
                lastError = error
                usleep(250_000)
            }
        }
        throw lastError!
    }

    /// A one-time join code for door `name`.
    func joinCode(for name: String) throws -> String {
        let added = try cli.run(["hub", "add-door", name, "--json"])
        return try #require(added.json?["code"] as? String, "\(added.stdout) \(added.stderr)")
    }

    /// SIGTERM, and the hub's exit status.
    func stop() -> Int32 {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        return process.process.terminationStatus
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    struct HubDidNotStart: Error, CustomStringConvertible {
        var log: String
        var description: String { "fpmod hub serve did not start: \(log)" }
    }
}
