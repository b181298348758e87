import CShims
import Glibc

/// The `POLL*` event bits of `poll(2)`.
public struct PollEvents: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    public static let readable = PollEvents(rawValue: Int16(POLLIN))
    public static let priority = PollEvents(rawValue: Int16(POLLPRI))
    public static let writable = PollEvents(rawValue: Int16(POLLOUT))
    /// Output only: an error condition (always reported, no need to ask).
    public static let error = PollEvents(rawValue: Int16(POLLERR))
    /// Output only: the peer hung up (always reported).
    public static let hangUp = PollEvents(rawValue: Int16(POLLHUP))
    /// Output only: the descriptor is not open (always reported).
    public static let invalid = PollEvents(rawValue: Int16(POLLNVAL))
    /// The stream peer shut down writing (`POLLRDHUP`).
    public static let peerClosedWriting = PollEvents(rawValue: 0x2000)  // POLLRDHUP; hidden behind _GNU_SOURCE

    public var description: String {
        let names: [(PollEvents, String)] = [
            (.readable, "in"), (.priority, "pri"), (.writable, "out"), (.error, "err"),
            (.hangUp, "hup"), (.invalid, "nval"), (.peerClosedWriting, "rdhup"),
        ]
        return "[" + names.filter { contains($0.0) }.map(\.1).joined(separator: ",") + "]"
    }
}

/// `poll(2)` on several descriptors until one is ready or `deadline` passes (`nil` waits
/// forever). Returns the `revents` of each descriptor, in order; all empty means the deadline
/// passed. EINTR is retried with the remaining time. The wait is `ppoll(2)` with nanosecond
/// precision: a millisecond-rounded timeout would add up to 1 ms to every paced reply.
public func poll(_ fds: [(FileDescriptor, PollEvents)], deadline: ContinuousClock.Instant?) throws(Errno) -> [PollEvents] {
    var entries = fds.map { pollfd(fd: $0.0.rawValue, events: $0.1.rawValue, revents: 0) }
    while true {
        let timeout = nanoseconds(until: deadline)
        let count = entries.withUnsafeMutableBufferPointer {
            fpmod_ppoll($0.baseAddress, UInt($0.count), timeout)
        }
        if count == -1 {
            let error = Errno.current
            if error == .interrupted { continue }
            throw error
        }
        if count == 0, let deadline, ContinuousClock.now < deadline { continue }
        return entries.map { PollEvents(rawValue: $0.revents) }
    }
}

/// `poll(2)` on one descriptor, without the allocations of the array form: the hot path of
/// every serial read.
public func poll(_ fd: FileDescriptor, _ events: PollEvents, deadline: ContinuousClock.Instant?) throws(Errno) -> PollEvents {
    var entry = pollfd(fd: fd.rawValue, events: events.rawValue, revents: 0)
    while true {
        let count = fpmod_ppoll(&entry, 1, nanoseconds(until: deadline))
        if count == -1 {
            let error = Errno.current
            if error == .interrupted { continue }
            throw error
        }
        if count == 0, let deadline, ContinuousClock.now < deadline { continue }
        return PollEvents(rawValue: entry.revents)
    }
}

/// The ppoll(2) timeout for `deadline` in nanoseconds: -1 for none, 0 if past.
func nanoseconds(until deadline: ContinuousClock.Instant?) -> Int64 {
    guard let deadline else { return -1 }
    let remaining = ContinuousClock.now.duration(to: deadline)
    if remaining <= .zero { return 0 }
    let (seconds, attoseconds) = remaining.components
    if seconds >= Int64.max / 1_000_000_000 - 1 { return Int64.max / 2 }
    return seconds * 1_000_000_000 + (attoseconds + 999_999_999) / 1_000_000_000
}
/// The poll(2) timeout for `deadline`: -1 for none, 0 if past, else whole milliseconds rounded up.
func milliseconds(until deadline: ContinuousClock.Instant?) -> Int32 {
    guard let deadline else { return -1 }
    let remaining = ContinuousClock.now.duration(to: deadline)
    if remaining <= .zero { return 0 }
    let (seconds, attoseconds) = remaining.components
    let millis = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    return Int32(clamping: millis)
}
