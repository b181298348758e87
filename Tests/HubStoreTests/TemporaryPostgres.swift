import Foundation
import Posix
import Testing

/// A real PostgreSQL server for one test: Debian's `initdb` and `pg_ctl` in a fresh folder,
/// listening only on a Unix socket in it (no TCP), stopped and removed by `stop()`. PostgreSQL
/// refuses to run as root, so under root (the CI) it runs as `nobody` through `runuser`.
final class TemporaryPostgres: @unchecked Sendable {
    // Every field is set once in init and never changes.
    let directory: String
    private let binaries: String
    private let asNobody: Bool

    /// The newest installed server's programs, e.g. /usr/lib/postgresql/17/bin.
    static let installedBinaries: String? = {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        return versions.reversed().map { "\(root)/\($0)/bin" }.first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
    }()

    static var isInstalled: Bool { installedBinaries != nil }

    init() throws {
        let binaries = try #require(Self.installedBinaries, "no PostgreSQL server: tools/install-deps.sh installs Debian's postgresql")
        self.binaries = binaries
        asNobody = CurrentProcess.effectiveUserID == 0
        var template = Array("/tmp/fpmod-pg-XXXXXX".utf8CString)
        directory = String(cString: try #require(mkdtemp(&template)))
        if asNobody {
            try FileManager.default.setAttributes([.ownerAccountID: 65534, .groupOwnerAccountID: 65534], ofItemAtPath: directory)
        }
        let initdb = try run("initdb", ["-D", directory + "/data", "-U", "fpmod", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"])
        try #require(initdb.status == 0, "initdb failed: \(initdb.output)")
        try start()
    }

    deinit { stop() }

    /// A libpq connection string for `database` on this server.
    func conninfo(_ database: String = "postgres") -> String {
        "host=\(directory) port=5432 user=fpmod dbname=\(database)"
    }

    /// A fresh empty database; its connection string.
    func newDatabase(_ name: String) throws -> String {
        let made = try run("createdb", ["-h", directory, "-p", "5432", "-U", "fpmod", name])
        try #require(made.status == 0, "createdb failed: \(made.output)")
        return conninfo(name)
    }

    /// SQL through the real `psql` (another client than ours); its output.
    @discardableResult
    func psql(_ database: String, _ sql: String) throws -> String {
        let result = try run("psql", ["-h", directory, "-p", "5432", "-U", "fpmod", "-d", database, "-v", "ON_ERROR_STOP=1", "-At", "-c", sql])
        try #require(result.status == 0, "psql failed: \(result.output)")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func start() throws {
        let options = "-k \(directory) -c listen_addresses='' -c fsync=off -c full_page_writes=off"
        let started = try run("pg_ctl", ["-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "60", "-o", options, "start"])
        try #require(started.status == 0, "pg_ctl start failed: \(started.output) \(serverLog)")
    }

    /// Stops the server at once (no checkpoint, as a crash would); start() brings it back.
    func kill() throws {
        let stopped = try run("pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
        try #require(stopped.status == 0, "pg_ctl stop failed: \(stopped.output)")
    }

    func stop() {
        guard FileManager.default.fileExists(atPath: directory) else { return }
        _ = try? run("pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    var serverLog: String { (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? "" }

    /// One of the server's programs, as nobody under root; its exit status and output.
    private func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        if asNobody {
            process.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
            process.arguments = ["-u", "nobody", "--", binaries + "/" + tool] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: binaries + "/" + tool)
            process.arguments = arguments
        }
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        // pg_ctl start hands the server's output to the log file (-l), so the pipe closes when pg_ctl ends.
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }
}
