import Foundation
import Glibc
import Testing
@testable import TemplateStore

/// A real tmpfs small enough to fill: the only honest way to see what SQLite reports when the
/// disk is full (an fs that merely refuses writes reports something else).
private struct SmallTmpfs {
    let directory: TemporaryDirectory

    init(bytes: Int) throws {
        directory = try TemporaryDirectory()
        let status = Process.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", directory.path])
        guard status == 0 else {
            directory.remove()
            throw StoreError.fileSystem(path: directory.path, detail: "mount -t tmpfs failed (\(status))")
        }
    }

    /// Whether this process may mount a tmpfs at all (root, not in a locked-down container).
    static let permitted: Bool = {
        guard let probe = try? SmallTmpfs(bytes: 65536) else { return false }
        probe.remove()
        return true
    }()

    /// Writes a filler file until the file system refuses with ENOSPC.
    func fill() -> String {
        let path = directory.path + "/filler"
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(fd) }
        let chunk = [UInt8](repeating: 0xA5, count: 4096)
        while chunk.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) > 0 {}
        return path
    }

    func remove() {
        _ = Process.run("/bin/umount", [directory.path])
        directory.remove()
    }
}

private extension Process {
    static func run(_ tool: String, _ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return -1 }
        process.waitUntilExit()
        return process.terminationStatus
    }
}

@Suite struct DiskFullTests {
    @Test(.enabled(if: SmallTmpfs.permitted, "cannot mount a tmpfs here (needs root outside a locked-down container)"))
    func aFullDiskIsReportedAsSuchAndLosesNothing() throws {
        let tmpfs = try SmallTmpfs(bytes: 2 << 20)
        defer { tmpfs.remove() }
        let store = try tmpfs.directory.openStore()
        _ = try store.addUser(name: "before")
        let filler = tmpfs.fill()

        var added = 0
        var failure: Error?
        for index in 0..<10_000 where failure == nil {
            do {
                _ = try store.addUser(name: UserName(stringLiteral: "user\(index)"))
                added += 1
            } catch {
                failure = error
            }
        }
        let full = try #require(failure as? StoreError, "no write failed on a full tmpfs")
        #expect(full == .diskFull(path: tmpfs.directory.database))
        #expect(full.description.hasPrefix("the disk holding the store is full: free space on"))

        unlink(filler)
        _ = try store.addUser(name: "after")
        let reopened = try tmpfs.directory.openStore()
        let names = try reopened.users().map(\.name)
        #expect(names.count == added + 2)
        #expect(names.contains("before") && names.contains("after"))
    }
}
