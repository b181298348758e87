import Foundation
import Glibc
import Posix
import Testing

/// The path calls on real files in a temporary directory; each failure is the `Errno` the
/// kernel gave, so callers can say which.
struct FileSystemTests {
    @Test func aDirectoryGetsExactlyItsModeWhateverTheUmask() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        // mkdir alone would give 0755 under the usual umask 022; the chmod makes it 0777.
        try FileSystem.makeDirectory(directory + "/open", mode: 0o777)
        let made = try FileSystem.status(directory + "/open")
        #expect(made.kind == .directory)
        #expect(made.permissions == 0o777)
        #expect(made.ownerID == CurrentProcess.effectiveUserID)
        try FileSystem.makeDirectory(directory + "/private", mode: 0o700)
        #expect(try FileSystem.status(directory + "/private").permissions == 0o700)
    }

    @Test func makingADirectoryThatExistsOrUnderAFileSaysWhy() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        try FileSystem.makeDirectory(directory + "/d", mode: 0o700)
        try FileSystem.changeMode(directory + "/d", 0o750)
        #expect(throws: Errno.fileExists) { try FileSystem.makeDirectory(directory + "/d", mode: 0o700) }
        #expect(try FileSystem.status(directory + "/d").permissions == 0o750, "an existing directory keeps its mode")
        try FileSystem.createFile(directory + "/file", mode: 0o600)
        #expect(throws: Errno(rawValue: ENOTDIR)) { try FileSystem.makeDirectory(directory + "/file/d", mode: 0o700) }
        #expect(throws: Errno.noSuchFile) { try FileSystem.makeDirectory(directory + "/missing/d", mode: 0o700) }
        #expect(throws: Errno.noSuchFile) { try FileSystem.changeMode(directory + "/missing", 0o700) }
    }

    @Test func createFileMakesAnEmptyFileAndLeavesAnExistingOneAlone() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let path = directory + "/f"
        #expect(!FileSystem.exists(path))
        try FileSystem.createFile(path, mode: 0o600)
        #expect(FileSystem.exists(path))
        #expect(try FileSystem.status(path) == FileStatus(kind: .regular, permissions: 0o600, size: 0, ownerID: CurrentProcess.effectiveUserID, groupID: CurrentProcess.effectiveGroupID))
        try AtomicFile.replace(path, with: [1, 2, 3], mode: 0o640)
        try FileSystem.createFile(path, mode: 0o600)
        #expect(try FileSystem.contents(of: path) == [1, 2, 3])
        #expect(try FileSystem.status(path).permissions == 0o640)
    }

    @Test func contentsReadsPastOneChunkAndSaysNilOnlyForAMissingFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try AtomicFile.replace(directory + "/big", with: bytes)
        #expect(try FileSystem.contents(of: directory + "/big") == bytes)
        #expect(try FileSystem.contents(of: directory + "/missing") == nil)
        #expect(throws: Errno.isDirectory) { try FileSystem.contents(of: directory) }
        #expect(throws: Errno(rawValue: ENOTDIR)) { try FileSystem.contents(of: directory + "/big/x") }
    }

    @Test func statusNamesTheKind() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        #expect(try FileSystem.status("/dev/null").kind == .characterDevice)
        #expect(try FileSystem.status(directory).kind == .directory)
        #expect(throws: Errno.noSuchFile) { try FileSystem.status(directory + "/missing") }
        #expect(FileSystem.isAccessible(directory, R_OK | W_OK | X_OK))
        #expect(!FileSystem.isAccessible(directory + "/missing", R_OK))
    }
}
