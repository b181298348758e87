import DoorLock
import Foundation
import Glibc
import Posix
import Testing

/// Issue 10, item 7: SIGTERM (`stop`) turns the relay off and frees the socket paths before
/// it waits for anything; a stale socket file is replaced, a live one names its process.
@Suite(.serialized)
struct ShutdownTests {
    @Test func stopTurnsTheRelayOffAndClosesTheSocketsWithoutWaitingForTheModule() throws {
        // A module that takes 10 s to answer, and a driver that waits 5 s for a reply.
        var timeouts = LockHarness.timeouts()
        timeouts.ordinary = .seconds(5)
        let lock = try LockHarness(configJSON: #"{"policy": {"relayPulseSeconds": 60}}"#, timeouts: timeouts)
        #expect(try lock.control("unlock boss 7391")["result"] as? String == "unlocked")
        try waitUntil("the relay is on") { lock.service.snapshot.relayOn }
        lock.simulator.fault(.delay(milliseconds: 10_000))
        let handled = lock.simulator.status().commandsHandled
        #expect(try lock.control("scan")["result"] as? String == "scanning")
        try waitUntil("the scan's GenImg reached the module") { lock.simulator.status().commandsHandled > handled }

        let stopped = DispatchSemaphore(value: 0)
        let service = lock.service
        Thread { service.stop(); stopped.signal() }.start()
        try waitUntil("the control socket file is gone") { !FileManager.default.fileExists(atPath: lock.options.controlSocket) }
        #expect(lock.relayChanges.last == false, "relay off: \(lock.relayChanges)")
        #expect(!FileManager.default.fileExists(atPath: lock.options.eventsSocket))
        // The GenImg is still waiting for its reply: nothing above waited for it.
        #expect(stopped.wait(timeout: .now()) == .timedOut, "stop() had already finished with the module")
        #expect(stopped.wait(timeout: .now() + 20) == .success)
    }

    @Test func aStaleSocketFileIsReplaced() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/control.sock"
        try leaveStaleSocket(at: path)
        let lock = try LockHarness(configureOptions: { $0.controlSocket = path })
        #expect(try lock.control("status")["ok"] as? Bool == true)
    }

    @Test func aSocketSomebodyListensOnIsAnErrorNamingThatProcess() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/control.sock"
        let squatter = try UnixListener(path: path)
        defer { squatter.close() }
        do {
            _ = try LockHarness(configureOptions: { $0.controlSocket = path })
            Issue.record("the service started on a socket another process listens on")
        } catch let error as LockServiceError {
            #expect(error.description.contains("pid \(getpid())"), "\(error)")
            #expect(error.description.contains(CommandLine.arguments[0].split(separator: "/").last.map(String.init) ?? "?"), "\(error)")
        }
        // Nobody took the socket over.
        #expect(UnixListener.listener(at: path)?.pid == getpid())
    }

    private func temporaryDirectory() throws -> String {
        var template = [CChar]("/tmp/fps-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw HarnessError("mkdtemp failed") }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// A socket file as a killed process leaves it: bound, then closed without unlink.
    private func leaveStaleSocket(at path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(fd)
        guard bound == 0 else { throw HarnessError("bind \(path) failed: \(errno)") }
    }
}
