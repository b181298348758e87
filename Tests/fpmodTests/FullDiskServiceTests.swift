import Foundation
import Glibc
import Testing

/// The running door with its store on a real tmpfs that fills up: it keeps deciding, says that
/// records cannot be written, keeps them in memory, writes them when space returns (the chain
/// intact), and an enrollment is refused cleanly meanwhile.
@Suite(.serialized) struct FullDiskServiceTests {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// A tmpfs mounted in the test's directory (root only: CI runs as root).
    final class SmallDisk {
        let path: String
        init(_ path: String, bytes: Int) throws {
            self.path = path
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            let mount = Process()
            mount.executableURL = URL(fileURLWithPath: "/bin/mount")
            mount.arguments = ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", path]
            try mount.run()
            mount.waitUntilExit()
            guard mount.terminationStatus == 0 else {
                throw Failure(description: "mount -t tmpfs failed (\(mount.terminationStatus)): the full-disk test needs root, as CI runs")
            }
        }

        var filler: String { path + "/filler" }

        /// Writes a filler file until the file system refuses with ENOSPC.
        func fill() {
            let fd = open(filler, O_WRONLY | O_CREAT | O_APPEND, 0o600)
            defer { close(fd) }
            let chunk = [UInt8](repeating: 0xA5, count: 4096)
            while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        }

        func free() { unlink(filler) }

        deinit {
            let umount = Process()
            umount.executableURL = URL(fileURLWithPath: "/bin/umount")
            umount.arguments = ["-l", path]
            try? umount.run()
            umount.waitUntilExit()
        }
    }

    @Test func theDoorKeepsDecidingAndTheRecordsWaitForSpace() throws {
        let cli = CLI()
        let disk = try SmallDisk(cli.directory + "/disk", bytes: 4 << 20)
        cli.environment["FPMOD_STORE"] = disk.path + "/store.db"
        cli.environment["FPMOD_STORE_KEY"] = disk.path + "/store.key"
        #expect(try cli.sim(["enroll", "alice"], finger: "alice-right-index").status == 0)
        let service = try ServiceControlCLITests.RunningService(cli)
        defer { service.stop() }
        let config = ["--config", service.config]
        func status() throws -> [String: Any] { try #require(try cli.run(config + ["status", "--json"]).json) }
        func touchAlice() throws {
            let before = try status()["events"] as? Int ?? 0
            try service.simulator("touch alice-right-index 1")
            try waitFor("the service to decide") { (try status()["events"] as? Int ?? 0) > before }
            try service.simulator("lift")
        }

        try touchAlice()
        disk.fill()
        // Each decision appends to the write-ahead log; on a full disk that fails.
        var touches = 0
        while try status()["records"] as? String == "ok", touches < 20 {
            try touchAlice()
            touches += 1
        }
        let full = try status()
        let records = try #require(full["records"] as? String)
        #expect(records.hasPrefix("cannot be written") && records.contains("full"), "\(records)\n\(service.log)")
        #expect(service.log.contains("audit records cannot be written"), "\(service.log)")
        #expect(try cli.run(config + ["status"]).stdout.contains("Records:"))

        // The door still decides while nothing can be written.
        let waitingBefore = full["recordsWaiting"] as? Int ?? 0
        #expect(waitingBefore >= 1)
        try touchAlice()
        #expect((try status()["recordsWaiting"] as? Int ?? 0) > waitingBefore, "\(service.log)")
        #expect(try status()["locked"] is Bool)

        // An enrollment is refused before the module is touched, naming the full disk.
        let enroll = try cli.run(config + ["enroll", "bob", "--timeout", "5s"])
        #expect(enroll.status != 0)
        #expect(enroll.stderr.lowercased().contains("full") || enroll.stderr.contains("free space"), "\(enroll.stderr)")

        // Space returns: the kept records are written, in order, with the chain intact.
        disk.free()
        try waitFor("the kept records to be written", timeout: .seconds(30)) { try status()["records"] as? String == "ok" }
        #expect(service.log.contains("audit records are written again"), "\(service.log)")
        service.stop()
        let events = try cli.auditEvents()
        #expect(events.filter { $0 == "unlocked" || $0 == "granted" }.count >= touches + 2, "\(events)")
        #expect(!(try cli.userNames()).contains("bob"))
        let verify = try cli.run(["log", "verify"])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        let integrity = Process()
        integrity.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        integrity.arguments = [disk.path + "/store.db", "PRAGMA integrity_check"]
        let out = Pipe()
        integrity.standardOutput = out
        try integrity.run()
        integrity.waitUntilExit()
        #expect(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "ok\n")
    }
}
