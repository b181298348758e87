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
    let process: LoggedProcess
    let base: String
    /// The fleet authority's SHA-256, as `fpmod hub serve` prints it.
    let authoritySHA256: String

    var authorityPath: String { directory + "/authority.pem" }

    init() throws {
        server = try TemporaryPostgres()
        database = try server.newDatabase("fleet")
        cli = CLI()
        cli.environment["FPMOD_HUB_DATABASE"] = database
        let migrated = try cli.run(["hub", "migrate"])
        try #require(migrated.status == 0, "\(migrated.stderr)")
        directory = cli.directory + "/hub"
        process = try LoggedProcess(cli, arguments: ["hub", "serve", "--listen", "127.0.0.1:0", "--names", "localhost,127.0.0.1",
                                                     "--dir", directory], logPath: cli.directory + "/hub.log")
        var port: String?
        var fingerprint: String?
        let deadline = ContinuousClock.now + .seconds(60)
        while port == nil, process.isRunning, ContinuousClock.now < deadline {
            let log = process.log
            if let range = log.range(of: #"https://127\.0\.0\.1:(\d+)/"#, options: .regularExpression) {
                port = log[range].split(separator: ":").last.map { String($0.dropLast()) }
                fingerprint = log.range(of: #"SHA-256 [0-9A-Fa-f:]+"#, options: .regularExpression).map { String(log[$0].dropFirst(8)) }
            } else {
                usleep(50_000)
            }
        }
        guard let port, let fingerprint else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw HubDidNotStart(log: process.log)
        }
        base = "https://127.0.0.1:\(port)"
        authoritySHA256 = fingerprint
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
