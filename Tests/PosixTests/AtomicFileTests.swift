import Foundation
import Glibc
import Posix
import Testing

/// `AtomicFile`: whole files in place or not at all, with the mode asked for, nothing left over.
@Suite struct AtomicFileTests {
    @Test func replaceWritesTheModeAskedForWhateverTheUmask() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let path = directory + "/flash.json"
        let old = umask(0)
        defer { umask(old) }
        try AtomicFile.replace(path, with: Array("first".utf8), mode: 0o600)
        try AtomicFile.replace(path, with: Array("second".utf8), mode: 0o600)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["flash.json"], "no temporary file left")
    }

    @Test func createExclusivelyNeverReplaces() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let path = directory + "/store.key"
        #expect(try AtomicFile.createExclusively(path, with: [1, 2, 3]))
        #expect(try !AtomicFile.createExclusively(path, with: [9, 9, 9]))
        #expect(try Array(Data(contentsOf: URL(fileURLWithPath: path))) == [1, 2, 3])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["store.key"])
    }

    @Test func aMissingDirectoryIsATypedError() {
        #expect(throws: Errno.noSuchFile) { try AtomicFile.replace("/nonexistent-fpmod/x", with: [1]) }
    }
}
