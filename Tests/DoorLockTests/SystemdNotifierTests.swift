import DoorLock
import Foundation
import Glibc
import Testing

struct SystemdNotifierTests {
    /// A real datagram socket stands in for systemd's notify socket.
    @Test func sendsDatagramsAndHalvesTheWatchdog() throws {
        let path = "/tmp/fpl-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd); unlink(path) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000"])
        #expect(notifier.watchdogInterval == .seconds(5))
        #expect(notifier.notify("READY=1"))
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
        #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == "READY=1")
        #expect(!SystemdNotifier(environment: [:]).notify("READY=1"))
    }
}
