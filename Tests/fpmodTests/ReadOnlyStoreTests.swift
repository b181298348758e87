import Foundation
import Glibc
import Testing

/// A store this user cannot write (its file read-only, or its folder) is still read by list,
/// log, info and doctor, without a file created beside it; a command that writes (enroll,
/// identify) says the store is read-only, exit 77. Root ignores permissions, so the commands
/// run as nobody (setpriv), as the serial port's permission test does.
@Suite(.serialized) struct ReadOnlyStoreTests {
    static let setpriv = "/usr/bin/setpriv"

    enum Layout: String, CaseIterable { case readOnlyFile, readOnlyFolder }

    /// A store with alice enrolled, copied to `folder` and given to nobody, read-only as `layout` says.
    func readOnlyStore(_ cli: CLI, _ layout: Layout) throws -> String {
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        let folder = cli.directory + "/" + layout.rawValue
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        for file in ["store.db", "key", "sim-r307.state"] {
            try FileManager.default.copyItem(atPath: cli.directory + "/" + file, toPath: folder + "/" + file)
            #expect(chown(folder + "/" + file, 65534, 65534) == 0)
        }
        #expect(chmod(folder + "/store.db", 0o400) == 0)
        #expect(chmod(folder + "/key", 0o400) == 0)
        #expect(chown(folder, 65534, 65534) == 0)
        #expect(chmod(folder, layout == .readOnlyFolder ? 0o500 : 0o700) == 0)
        #expect(chmod(cli.directory, 0o755) == 0)
        return folder
    }

    /// `fpmod ARGS…` as nobody, on the store in `folder`.
    func asNobody(_ cli: CLI, _ folder: String, _ arguments: [String]) throws -> CLI.Result {
        let environment = ["FPMOD_STORE": folder + "/store.db", "FPMOD_STORE_KEY": folder + "/key",
                           "RUNTIME_DIRECTORY": cli.directory + "/run-nobody", "HOME": cli.directory]
        return try cli.run(["--reuid=65534", "--regid=65534", "--clear-groups", CLI.binary] + arguments,
                           environment: environment, executable: Self.setpriv)
    }

    // A clone in a private folder (mktemp -d is 0700) keeps nobody from the binary: nothing to test there.
    @Test(.enabled(if: nobodyCanRun(CLI.binary), "the fpmod binary must be reachable by nobody (its folders world-searchable)"),
          arguments: Layout.allCases)
    func readOnlyCommandsReadItAndWritingCommandsSaySo(layout: Layout) throws {
        try #require(getuid() == 0 && FileManager.default.isExecutableFile(atPath: Self.setpriv),
                     "needs root and setpriv (util-linux) to drop to nobody")
        let cli = CLI()
        let folder = try readOnlyStore(cli, layout)
        let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        let bytes = FileManager.default.contents(atPath: folder + "/store.db")

        let list = try asNobody(cli, folder, ["list", "--json"])
        #expect(list.status == 0, "\(list.stderr)")
        #expect((list.json?["users"] as? [[String: Any]])?.first?["name"] as? String == "alice")
        let log = try asNobody(cli, folder, ["log"])
        #expect(log.status == 0 && log.stdout.contains("enroll"), "\(log.stderr)")
        let info = try asNobody(cli, folder, ["--sim", "info"])
        #expect(info.status == 0, "\(info.stderr)")
        let doctor = try asNobody(cli, folder, ["doctor"])
        #expect(doctor.stdout.contains("is read-only for this user"), "\(doctor.stdout)")

        for arguments in [["--sim", "--sim-finger", "alice-right-index", "identify"], ["--sim", "enroll", "bob"]] {
            let refused = try asNobody(cli, folder, arguments)
            #expect(refused.status == 77, "\(arguments): \(refused.stderr)")
            #expect(refused.stderr.contains("is read-only"), "\(refused.stderr)")
            #expect(refused.stderr.contains("list, log, info and doctor read a read-only store"))
        }
        // Nothing was created beside the store (no WAL or shared-memory file) and nothing changed.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before)
        #expect(FileManager.default.contents(atPath: folder + "/store.db") == bytes)
    }

    /// Every directory on the way to `path` is searchable by others, and the file is executable.
    static func nobodyCanRun(_ path: String) -> Bool {
        var current = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? path
        if !current.hasPrefix("/") { current = (path as NSString).deletingLastPathComponent + "/" + current }
        while current != "/" && !current.isEmpty {
            var info = stat()
            if stat(current, &info) != 0 || info.st_mode & 0o001 == 0 { return false }
            current = (current as NSString).deletingLastPathComponent
        }
        return true
    }
}
