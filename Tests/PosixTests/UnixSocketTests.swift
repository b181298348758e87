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

    /// The file appears only once the socket listens: a client polling for it is never refused.
    /// Bound at the path itself (bind, then listen), dozens of rounds of 1,500 were refused on an idle machine.
    @Test func aSocketFileThatExistsAcceptsAtOnce() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let rounds = 1500
        let made = Thread {
            for round in 0..<rounds {
                let listener = try? UnixListener(path: directory + "/\(round).sock")
                // Kept until the client has connected: closing removes the file.
                while listener != nil, FileManager.default.fileExists(atPath: directory + "/\(round).done") == false { usleep(50) }
                listener?.close()
            }
        }
        made.start()
        var refused: [Int] = []
        for round in 0..<rounds {
            let path = directory + "/\(round).sock"
            var info = stat()
            let deadline = ContinuousClock.now + .seconds(30)
            while lstat(path, &info) != 0, ContinuousClock.now < deadline {}
            do { try UnixConnection.connect(path: path).close() } catch { refused.append(round) }
            #expect(FileManager.default.createFile(atPath: directory + "/\(round).done", contents: nil))
        }
        #expect(refused.isEmpty, "refused in rounds \(refused.prefix(10))")
        // No temporary name is left behind.
        let left = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix(".") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test func theTemporaryNameFitsOrIsThePathItself() {
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        let short = "/run/fpmod/control"
        #expect(UnixListener.temporaryName(beside: short) == "/run/fpmod/.control.\(getpid()).new")
        // A long name: the short form; a path whose directory alone nearly fills the address: itself.
        let longName = "/tmp/" + String(repeating: "n", count: capacity - 10)
        #expect(UnixListener.temporaryName(beside: longName) == "/tmp/.fpmod-\(getpid())")
        let longDirectory = "/" + String(repeating: "d", count: capacity - 6) + "/s"
        #expect(UnixListener.temporaryName(beside: longDirectory) == longDirectory)
        #expect(UnixListener.temporaryName(beside: "relative.sock").hasPrefix(".relative.sock."))
    }

    @Test func aPathTooLongForATemporaryNameStillListens() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        let path = directory + "/" + String(repeating: "s", count: capacity - directory.utf8.count - 2)
        #expect(UnixListener.temporaryName(beside: path) == path || UnixListener.temporaryName(beside: path).contains(".fpmod-"))
        let listener = try UnixListener(path: path)
        defer { listener.close() }
        let client = try UnixConnection.connect(path: path)
        #expect(try listener.accept(deadline: .now + .seconds(30)) != nil)
        client.close()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == [String(path.split(separator: "/").last!)])
    }

    @Test func connectingToNothingSaysSo() throws {
        #expect(throws: Errno.noSuchFile) { _ = try UnixConnection.connect(path: "/nonexistent/fpmod.sock") }
        #expect(throws: Errno.nameTooLong) {
            _ = try UnixConnection.connect(path: "/tmp/" + String(repeating: "x", count: 200))
        }
    }
}
