import Foundation
import Glibc
import Testing
@testable import Posix

@Suite struct UnixSocketTests {
    @Test func linesRoundTripBothWays() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let path = directory + "/control.sock"
        let listener = try UnixListener(path: path, mode: 0o600)
        defer { listener.close() }

        var info = stat()
        #expect(lstat(path, &info) == 0)
        #expect(info.st_mode & S_IFMT == S_IFSOCK)
        #expect(info.st_mode & 0o777 == 0o600)

        let client = try UnixConnection.connect(path: path)
        defer { client.close() }
        let server = try #require(try listener.accept(deadline: .now + .seconds(30)))
        defer { server.close() }

        try client.send(line: "enroll 3 alice")
        try client.send("status\r\npartial")
        #expect(try server.readLine(deadline: .now + .seconds(30)) == "enroll 3 alice")
        #expect(try server.readLine(deadline: .now + .seconds(30)) == "status")
        #expect(try server.readLine(deadline: .now + .milliseconds(10)) == nil)
        #expect(server.isClosedByPeer == false)

        try server.send(line: "{\"event\":\"match\",\"slot\":3}")
        #expect(try client.readLine(deadline: .now + .seconds(30)) == "{\"event\":\"match\",\"slot\":3}")

        client.close()
        #expect(try server.readLine(deadline: .now + .seconds(30)) == "partial")
        #expect(try server.readLine(deadline: .now + .seconds(30)) == nil)
        #expect(server.isClosedByPeer)
        #expect(throws: Errno.brokenPipe) { try server.send(line: "anyone there?") }
    }

    @Test func acceptReturnsNilAtTheDeadlineWithoutAClient() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let listener = try UnixListener(path: directory + "/idle.sock")
        defer { listener.close() }
        #expect(try listener.accept(deadline: .now + .milliseconds(10)) == nil)
    }

    @Test func aStaleSocketFileIsReplaced() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let path = directory + "/stale.sock"
        // Bind and close without unlinking, as a killed process would leave it.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(try withUnixSocketAddress(path) { bind(fd, $0, $1) } == 0)
        Glibc.close(fd)
        #expect(FileManager.default.fileExists(atPath: path))

        let listener = try UnixListener(path: path)
        let client = try UnixConnection.connect(path: path)
        let server = try #require(try listener.accept(deadline: .now + .seconds(30)))
        try client.send(line: "ping")
        #expect(try server.readLine(deadline: .now + .seconds(30)) == "ping")
        client.close()
        server.close()
        listener.close()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aLiveListenerIsNotStolen() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let path = directory + "/live.sock"
        let first = try UnixListener(path: path)
        defer { first.close() }
        #expect(throws: Errno.addressInUse) { _ = try UnixListener(path: path) }
    }

    @Test func aRegularFileIsNotRemoved() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let path = directory + "/not-a-socket"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("keep".utf8)))
        #expect(throws: Errno.fileExists) { _ = try UnixListener(path: path) }
        #expect(FileManager.default.contents(atPath: path) == Data("keep".utf8))
    }

    @Test func connectingToNothingSaysSo() throws {
        #expect(throws: Errno.noSuchFile) { _ = try UnixConnection.connect(path: "/nonexistent/fpmod.sock") }
        #expect(throws: Errno.nameTooLong) {
            _ = try UnixConnection.connect(path: "/tmp/" + String(repeating: "x", count: 200))
        }
    }
}
