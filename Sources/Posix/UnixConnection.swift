import Glibc
import Synchronization

/// One end of a Unix stream socket carrying a line protocol: `send(line:)` out,
/// `readLine(deadline:)` in. Reads are buffered, so use one reading thread at a time.
public final class UnixConnection: Sendable {
    /// Poll it for `.readable`; then `readLine(deadline: .now)` does not wait.
    public let fileDescriptor: FileDescriptor
    private let input = Mutex(InputState())
    private let closed = Mutex(false)

    private struct InputState {
        var buffer = LineBuffer()
        var peerClosed = false
    }

    init(fileDescriptor: FileDescriptor) { self.fileDescriptor = fileDescriptor }

    deinit { close() }

    /// `socket` + `connect(2)` to a listener at `path`. Throws `Errno.noSuchFile` when nothing
    /// is there and `Errno.connectionRefused` when the file is left over from a dead listener.
    public static func connect(path: String) throws(Errno) -> UnixConnection {
        let fd = try makeUnixStreamSocket()
        do throws(Errno) {
            let result = try withUnixSocketAddress(path) { Glibc.connect(fd.rawValue, $0, $1) }
            if result == -1 {
                let error = Errno.current
                // A non-blocking connect on AF_UNIX completes at once unless the backlog is
                // full (EAGAIN) or a signal hit (EINTR); wait until it is writable then.
                guard error == .wouldBlock || error == .interrupted || error.rawValue == EINPROGRESS else { throw error }
                _ = try poll([(fd, .writable)], deadline: nil)
                var socketError: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                _ = try retryingOnInterrupt { getsockopt(fd.rawValue, SOL_SOCKET, SO_ERROR, &socketError, &length) }
                if socketError != 0 { throw Errno(rawValue: socketError) }
            }
        } catch {
            try? fd.close()
            throw error
        }
        return UnixConnection(fileDescriptor: fd)
    }

    /// True once the peer closed its end and every buffered line has been read.
    public var isClosedByPeer: Bool { input.withLock { $0.peerClosed && $0.buffer.isEmpty } }

    /// Sends the UTF-8 bytes of `string` as they are (`send(2)` with `MSG_NOSIGNAL`, so a gone
    /// peer is `Errno.brokenPipe`, not a SIGPIPE). Past `deadline` throws `Errno.timedOut`.
    public func send(_ string: String, deadline: ContinuousClock.Instant? = nil) throws(Errno) {
        let bytes = Array(string.utf8)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                Glibc.send(fileDescriptor.rawValue, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent >= 0 { offset += sent; continue }
            let error = Errno.current
            if error == .interrupted { continue }
            guard error == .wouldBlock else { throw error }
            if try poll([(fileDescriptor, .writable)], deadline: deadline)[0].isEmpty { throw Errno.timedOut }
        }
    }

    /// Sends `line` followed by `\n`. `line` must not contain a newline itself.
    public func send(line: String, deadline: ContinuousClock.Instant? = nil) throws(Errno) {
        try send(line + "\n", deadline: deadline)
    }

    /// The next line without its `\n` (or `\r\n`). Returns nil when `deadline` passes first
    /// (`nil` waits forever) or when the peer has closed and no data is left — check
    /// `isClosedByPeer` to tell the two apart. A last line without a newline before the peer
    /// closed is returned as a line. Throws `Errno.messageTooLong` for a line over 64 KiB.
    public func readLine(deadline: ContinuousClock.Instant?) throws(Errno) -> String? {
        try input.withLock { (state) throws(Errno) -> String? in
            while true {
                if let line = try state.buffer.nextLine() { return line }
                if state.peerClosed { return state.buffer.takeRemainder() }
                guard try fileDescriptor.waitReadable(deadline: deadline) else { return nil }
                do throws(Errno) {
                    let chunk = try fileDescriptor.read(maxCount: 4096)
                    if chunk.isEmpty { state.peerClosed = true }
                    state.buffer.append(chunk)
                } catch .wouldBlock {
                    continue
                } catch let error where error.rawValue == ECONNRESET {
                    state.peerClosed = true
                }
            }
        }
    }

    /// `shutdown(2)` of the sending side: the peer reads end of file after what was sent, and
    /// this end can still read its answer (what a one-shot client such as `socat` does).
    public func finishSending() throws(Errno) {
        _ = try retryingOnInterrupt { shutdown(fileDescriptor.rawValue, Int32(SHUT_WR)) }
    }

    /// Shuts the socket down and closes it. Idempotent.
    public func close() {
        let wasClosed = closed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        shutdown(fileDescriptor.rawValue, Int32(SHUT_RDWR))
        try? fileDescriptor.close()
    }
}
