import Glibc

/// One-shot datagrams to a Unix socket path: what `sd_notify` needs, without libsystemd.
public enum UnixDatagram {
    /// `socket(AF_UNIX, SOCK_DGRAM)` + `sendto(2)` of `bytes` to `path`, which may name the
    /// abstract namespace with a leading `@` (as `$NOTIFY_SOCKET` does).
    public static func send(_ bytes: [UInt8], to path: String) throws(Errno) {
        var pathBytes = Array(path.utf8)
        if pathBytes.first == UInt8(ascii: "@") { pathBytes[0] = 0 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw Errno.nameTooLong }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in pathBytes.enumerated() { buffer[index] = byte }
        }
        let fd = try retryingOnInterrupt { socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) }
        defer { close(fd) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count + (pathBytes.first == 0 ? 0 : 1))
        let sent = try retryingOnInterrupt {
            withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                    sendto(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL), socketAddress, length)
                }
            }
        }
        if sent != bytes.count { throw Errno.messageTooLong }
    }
}
