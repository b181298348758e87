import Foundation
import Glibc

/// A TCP relay on a loopback port in front of the hub that loses the hub's answer on one
/// connection, as a network that drops after the hub committed: on that connection the hub's
/// bytes are held a moment, and once the hub's log says `marker` (it logs a join before it
/// answers) the door is cut off instead of given them. TLS passes through untouched (the hub's
/// certificate is for 127.0.0.1, whatever the port); every other connection is relayed as it is.
final class AnswerLosingRelay: Sendable {
    let port: UInt16
    private let listener: Int32

    struct Failed: Error, CustomStringConvertible {
        var call: String
        var description: String { "\(call) failed (errno \(errno))" }
    }

    /// `losingConnection`: which accepted connection loses its answer, from 0.
    init(hubPort: UInt16, losingConnection lost: Int, once marker: String, inLog logPath: String) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard listener >= 0 else { throw Failed(call: "socket") }
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        let named = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) } }
        guard bound == 0, named == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw Failed(call: "bind, getsockname or listen")
        }
        port = UInt16(bigEndian: address.sin_port)
        self.listener = listener
        Thread.detachNewThread {
            var index = 0
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                let losing = index == lost
                index += 1
                Thread.detachNewThread { Self.relay(client, hubPort: hubPort, losing: losing, marker: marker, logPath: logPath) }
            }
        }
    }

    /// Stops accepting (connections under way end with their peers).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private static func relay(_ client: Int32, hubPort: UInt16, losing: Bool, marker: String, logPath: String) {
        defer { close(client) }
        let hub = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard hub >= 0 else { return }
        defer { close(hub) }
        var address = loopback(port: hubPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(hub, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { return }
        var held: [(bytes: [UInt8], at: ContinuousClock.Instant)] = []
        var descriptors = [pollfd(fd: client, events: Int16(POLLIN), revents: 0), pollfd(fd: hub, events: Int16(POLLIN), revents: 0)]
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            // Held long enough for the hub's log line to be there when these bytes are its answer to the join.
            while let first = held.first, ContinuousClock.now - first.at >= .milliseconds(300) {
                let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
                if log.contains(marker) { return }
                guard writeAll(client, first.bytes) else { return }
                held.removeFirst()
            }
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            guard poll(&descriptors, 2, 20) >= 0 || errno == EINTR else { return }
            if descriptors[0].revents != 0 {
                let count = read(client, &buffer, buffer.count)
                guard count > 0, writeAll(hub, Array(buffer[..<count])) else { return }
            }
            if descriptors[1].revents != 0 {
                let count = read(hub, &buffer, buffer.count)
                guard count > 0 else { return }
                if losing {
                    held.append((Array(buffer[..<count]), ContinuousClock.now))
                } else {
                    guard writeAll(client, Array(buffer[..<count])) else { return }
                }
            }
        }
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a door cut off is no SIGPIPE for the test process.
            let written = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }
}
