import Foundation
import Glibc
import Posix
import Testing

/// A real PostgreSQL server for one test: Debian's `initdb` and `pg_ctl` in a fresh folder,
/// listening only on a Unix socket in it (no TCP), stopped and removed by `stop()`. PostgreSQL
/// refuses to run as root, so under root (the CI) it runs as `nobody` through `runuser`.
public final class TemporaryPostgres: @unchecked Sendable {
    // Every field is set once in init and never changes.
    public let directory: String
    private let binaries: String
    private let asNobody: Bool

    /// The newest installed server's programs, e.g. /usr/lib/postgresql/17/bin.
    public static let installedBinaries: String? = {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        return versions.reversed().map { "\(root)/\($0)/bin" }.first { FileManager.default.isExecutableFile(atPath: "\($0)/initdb") }
    }()

    public static var isInstalled: Bool { installedBinaries != nil }

    public init() throws {
        let binaries = try #require(Self.installedBinaries, "no PostgreSQL server: tools/install-deps.sh installs Debian's postgresql")
        self.binaries = binaries
        asNobody = CurrentProcess.effectiveUserID == 0
        var template = Array("/tmp/fpmod-pg-XXXXXX".utf8CString)
        directory = String(cString: try #require(mkdtemp(&template)))
        if asNobody {
            try FileManager.default.setAttributes([.ownerAccountID: 65534, .groupOwnerAccountID: 65534], ofItemAtPath: directory)
        }
        let initdb = try run("initdb", ["-D", directory + "/data", "-U", "fpmod", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"])
        try #require(initdb.status ?? 0 == 0 && FileManager.default.fileExists(atPath: directory + "/data/PG_VERSION"), "initdb failed: \(initdb.output)")
        try start()
    }

    deinit { stop() }

    /// A libpq connection string for `database` on this server.
    public func conninfo(_ database: String = "postgres") -> String {
        "host=\(directory) port=5432 user=fpmod dbname=\(database)"
    }

    /// A fresh empty database; its connection string.
    public func newDatabase(_ name: String) throws -> String {
        let made = try run("createdb", ["-h", directory, "-p", "5432", "-U", "fpmod", name])
        try #require(made.status ?? 0 == 0, "createdb failed: \(made.output)")
        return conninfo(name)
    }

    /// SQL through the real `psql` (another client than ours); its output.
    @discardableResult
    public func psql(_ database: String, _ sql: String) throws -> String {
        let result = try run("psql", ["-h", directory, "-p", "5432", "-U", "fpmod", "-d", database, "-v", "ON_ERROR_STOP=1", "-At", "-c", sql])
        try #require(result.status ?? 0 == 0, "psql failed: \(result.output)")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    public func start() throws {
        let options = "-k \(directory) -c listen_addresses='' -c fsync=off -c full_page_writes=off"
        let started = try run("pg_ctl", ["-D", directory + "/data", "-l", directory + "/server.log", "-w", "-t", "60", "-o", options, "start"])
        try #require(started.status ?? 0 == 0, "pg_ctl start failed: \(started.output) \(serverLog)")
    }

    /// Stops the server at once (no checkpoint, as a crash would); start() brings it back.
    public func kill() throws {
        let stopped = try run("pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
        try #require(stopped.status ?? 0 == 0, "pg_ctl stop failed: \(stopped.output)")
    }

    public func stop() {
        guard FileManager.default.fileExists(atPath: directory) else { return }
        _ = try? run("pg_ctl", ["-D", directory + "/data", "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(atPath: directory)
    }

    public var serverLog: String { (try? String(contentsOfFile: directory + "/server.log", encoding: .utf8)) ?? "" }

    /// One of the server's programs, as nobody under root; its exit status and output.
    ///
    /// posix_spawn and waitpid rather than Foundation's Process: the server pg_ctl starts
    /// outlives pg_ctl, and with Process a test hung waiting for a child that had already exited.
    private func run(_ tool: String, _ arguments: [String]) throws -> (status: Int32?, output: String) {
        let argv = (asNobody ? ["/usr/sbin/runuser", "-u", "nobody", "--"] : []) + [binaries + "/" + tool] + arguments
        let outputPath = directory + "/\(tool)-\(UInt64.random(in: 0...UInt64.max)).out"
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        func quoted(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
        // Every descriptor above 2 closed first: posix_spawn hands the child whatever this process
        // has open without FD_CLOEXEC (another test's pipe), and the server pg_ctl starts would
        // keep it open, so that test would wait for its end of file until this server stops.
        let closeInherited = "for fd in /proc/$$/fd/*; do n=${fd##*/}; [ \"$n\" -gt 2 ] && eval \"exec $n>&-\" 2>/dev/null; done; "
        // The end is told by a status file, not by waitpid alone: in the whole test run another
        // part of the process (Foundation's Process) may reap this child first, and the output
        // would be read before the program had written it.
        let statusPath = outputPath + ".status"
        defer { try? FileManager.default.removeItem(atPath: statusPath) }
        // From /: as nobody, the tools cannot enter a checkout under `mktemp -d` (0700), and psql
        // then prints "could not change directory" into the output the test reads.
        let command = "cd / && " + closeInherited + argv.map(quoted).joined(separator: " ") + " </dev/null >" + quoted(outputPath) + " 2>&1; "
            + "echo $? >" + quoted(statusPath + ".part") + " && mv " + quoted(statusPath + ".part") + " " + quoted(statusPath)
        let pid = try ChildProcess.spawn(["/bin/bash", "-c", command], environment: ChildProcess.currentEnvironment)
        let deadline = Date().addingTimeInterval(120)
        var status: Int32 = 0
        while !FileManager.default.fileExists(atPath: statusPath) {
            guard Date() < deadline else {
                _ = Glibc.kill(pid, SIGKILL)
                throw PostgresToolTimedOut(tool: tool)
            }
            usleep(10_000)
        }
        // Reaped here when it is still ours (the shell ends right after writing the file).
        for _ in 0..<100 where waitpid(pid, &status, WNOHANG) == 0 { usleep(1_000) }
        let text = (try? String(contentsOfFile: statusPath, encoding: .utf8)) ?? ""
        let exit = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
        return (exit, (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "")
    }
}

struct PostgresToolTimedOut: Error, CustomStringConvertible {
    var tool: String
    var description: String { "\(tool) did not finish within 120 s" }
}
