import CShims

/// Who is at the other end of a Unix socket, as the kernel recorded it at `connect`/`listen`
/// time (`SO_PEERCRED`): the service trusts it, because a client cannot forge it.
public struct PeerCredentials: Sendable, Equatable {
    public var pid: Int32
    public var uid: UInt32

    public init(pid: Int32, uid: UInt32) {
        self.pid = pid
        self.uid = uid
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
