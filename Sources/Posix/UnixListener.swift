import CShims
import Glibc
import Synchronization

/// A listening Unix stream socket at a filesystem path (the control sockets of the service and
/// the simulator). The socket file is removed again by `close()`.
public final class UnixListener: Sendable {
    public let path: String
    /// Poll it for `.readable` to learn that `accept` will not wait.
    public let fileDescriptor: FileDescriptor
    private let closed = Mutex(false)

    /// `socket` + `bind` + `chmod` + `listen` + `link`. A stale socket file left by a process
    /// that died is removed first; if another process still accepts on it, this throws
    /// `Errno.addressInUse`, and if `path` is something other than a socket, `Errno.fileExists`.
    ///
    /// The socket is bound under a temporary name beside `path` and linked to `path` only once
    /// it listens: a client that sees the file (a test, a script, systemd's `ExecStartPost`)
    /// can connect at once. Bound at `path` itself, there is a moment between `bind` and
    /// `listen` when the file exists and `connect` is refused — and a loaded machine found it.
    /// `link` (not `rename`) so a socket another process put at `path` meanwhile is never
    /// replaced: that is `Errno.addressInUse`, as `bind` would have said.
    /// - Parameter mode: permissions of the socket file (who may connect); nil keeps the umask's.
    public init(path: String, mode: mode_t? = 0o660, backlog: Int32 = 16) throws(Errno) {
        try UnixListener.removeStaleSocket(at: path)
        let fd = try makeUnixStreamSocket()
        let bound = UnixListener.temporaryName(beside: path)
        // Left by this pid's predecessor, killed between its bind and its link.
        if bound != path { var info = stat(); if lstat(bound, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK { unlink(bound) } }
        do throws(Errno) {
            if try withUnixSocketAddress(bound, { bind(fd.rawValue, $0, $1) }) == -1 { throw Errno.current }
            defer { if bound != path { unlink(bound) } }
            if let mode { _ = try retryingOnInterrupt { chmod(bound, mode) } }
            _ = try retryingOnInterrupt { listen(fd.rawValue, backlog) }
            if bound != path {
                do throws(Errno) { _ = try retryingOnInterrupt { link(bound, path) } } catch {
                    throw error == .fileExists ? .addressInUse : error
                }
            }
        } catch {
            try? fd.close()
            throw error
        }
        self.path = path
        self.fileDescriptor = fd
    }

    /// `.NAME.PID.new` beside `path`, or a shorter `.fpmod-PID` when that does not fit a socket
    /// address; `path` itself (and the moment before `listen`) only when neither fits.
    static func temporaryName(beside path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        let pid = String(getpid())
        for candidate in [directory + "." + name + "." + pid + ".new", directory + ".fpmod-" + pid]
        where candidate.utf8.count < capacity {
            return candidate
        }
        return path
    }

    deinit { close() }

    /// `accept4(2)`, waiting as long as it takes.
    public func accept() throws(Errno) -> UnixConnection {
        while true {
            if let connection = try accept(deadline: nil) { return connection }
        }
    }

    /// `accept4(2)` once a client is waiting, or nil when `deadline` passes first.
    public func accept(deadline: ContinuousClock.Instant?) throws(Errno) -> UnixConnection? {
        while true {
            guard try fileDescriptor.waitReadable(deadline: deadline) else { return nil }
            let fd = fpmod_accept(fileDescriptor.rawValue)
            if fd >= 0 { return UnixConnection(fileDescriptor: FileDescriptor(rawValue: fd)) }
            let error = Errno.current
            // The client may have gone again between poll and accept: wait for the next one.
            if error == .wouldBlock || error == .interrupted || error.rawValue == ECONNABORTED { continue }
            throw error
        }
    }

    /// Closes the socket and removes its file. Idempotent.
    public func close() {
        let wasClosed = closed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        try? fileDescriptor.close()
        unlink(path)
    }

    private static func removeStaleSocket(at path: String) throws(Errno) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw Errno.fileExists }
        if let probe = try? UnixConnection.connect(path: path) {
            probe.close()
            throw Errno.addressInUse
        }
        _ = try retryingOnInterrupt { unlink(path) }
    }
}
