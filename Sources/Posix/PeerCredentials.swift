import CShims
import Glibc

/// Who is at the other end of a Unix socket, as the kernel recorded it at `connect`/`listen`
/// time (`SO_PEERCRED`): the service trusts it, because a client cannot forge it.
public struct PeerCredentials: Sendable, Equatable {
    public var pid: Int32
    public var uid: UInt32

    public init(pid: Int32, uid: UInt32) {
        self.pid = pid
        self.uid = uid
    }

    /// The peer's command line from `/proc/PID/cmdline` (arguments joined by spaces), for
    /// messages that name a process; nil when it is gone or hidden.
    public var commandLine: String? {
        let fd = open("/proc/\(pid)/cmdline", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let text = bytes[..<count].split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ")
        return text.isEmpty ? nil : text
    }
}

extension UnixConnection {
    /// `getsockopt(SO_PEERCRED)`: the peer process. For a connection from `connect(path:)`
    /// that is the process listening on the path.
    public func peerCredentials() throws(Errno) -> PeerCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        _ = try retryingOnInterrupt { fpmod_peer_credentials(fileDescriptor.rawValue, &pid, &uid) }
        return PeerCredentials(pid: pid, uid: uid)
    }
}

extension UnixListener {
    /// Who listens on the socket at `path` (connects once and asks the kernel), or nil when
    /// nobody does. Names the process behind `Errno.addressInUse`.
    public static func listener(at path: String) -> PeerCredentials? {
        guard let probe = try? UnixConnection.connect(path: path) else { return nil }
        defer { probe.close() }
        return try? probe.peerCredentials()
    }
}
