import Glibc

/// Builds a `sockaddr_un` for `path` and passes it to `body` the way bind/connect want it.
func withUnixSocketAddress<R>(
    _ path: String,
    _ body: (UnsafePointer<sockaddr>, socklen_t) -> R
) throws(Errno) -> R {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let pathBytes = Array(path.utf8)
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard !pathBytes.isEmpty, pathBytes.count < capacity else { throw Errno.nameTooLong }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: pathBytes)
        raw[pathBytes.count] = 0
    }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count + 1)
    return withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
    }
}

/// A new non-blocking, close-on-exec `AF_UNIX` stream socket.
func makeUnixStreamSocket() throws(Errno) -> FileDescriptor {
    let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
    let fd = try retryingOnInterrupt { socket(AF_UNIX, type, 0) }
    return FileDescriptor(rawValue: fd)
}
