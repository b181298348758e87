import GPIO
import Posix
import Wiegand

/// A Wiegand reader or keypad on two GPIO inputs (D0, D1): the falling edges libgpiod reports,
/// with the kernel's timestamps, fed to `WiegandDecoder` in time order. The lines idle high
/// (pulled up by the reader's open-collector outputs); a pulse is a short low.
///
/// One owner reads it; `deinit` gives the lines back.
public final class WiegandListener {
    private let d0: any InputLine
    private let d1: any InputLine
    private var decoder: WiegandDecoder
    /// Edges read but not fed yet: an edge is fed only once every edge before it on the other
    /// line can have been read too, so the decoder sees them in the order they happened.
    private var pending: [WiegandEdge] = []
    /// How long an edge waits for the other line's earlier edges: the kernel stamps an edge in
    /// its interrupt and queues it later (a threaded handler; milliseconds on a loaded or emulated
    /// machine: 0.5 ms was too short in the arm64 VM). Half the longest pause inside a frame:
    /// bits are never closer than `minimumInterval`, and a frame ends only a gap after its last
    /// bit anyway, so waiting this long delays a decision by at most half a bit pause.
    let reorderWindow: UInt64

    /// Requests both lines (`requestInput`, falling edges), checking first that they differ and
    /// exist on the chip.
    public init(chip: any GPIOChip, d0 d0Offset: Int, d1 d1Offset: Int, timing: WiegandDecoder.Timing,
                consumer: String = "fpmod-wiegand") throws(WiegandListenerError) {
        guard d0Offset != d1Offset else { throw .sameLine(String(d0Offset)) }
        for offset in [d0Offset, d1Offset] where !(0..<chip.lineCount).contains(offset) {
            throw .noSuchLine(offset, chip: chip.name, lineCount: chip.lineCount)
        }
        do {
            d0 = try chip.requestInput(offset: d0Offset, consumer: consumer + "-d0", edges: .falling, bias: .pullUp, activeLow: false)
            d1 = try chip.requestInput(offset: d1Offset, consumer: consumer + "-d1", edges: .falling, bias: .pullUp, activeLow: false)
        } catch {
            throw .gpio(error)
        }
        decoder = WiegandDecoder(timing: timing)
        reorderWindow = timing.maximumInterval / 2
    }

    deinit {
        d0.release()
        d1.release()
    }

    public var statistics: WiegandDecoder.Statistics { decoder.statistics }

    /// Waits until a frame is decoded or rejected, or until `deadline`; returns what came (empty
    /// at the deadline). A frame ends by the gap after its last bit, so the wait wakes then too.
    public func next(until deadline: ContinuousClock.Instant) throws(WiegandListenerError) -> [WiegandEvent] {
        var events: [WiegandEvent] = []
        while events.isEmpty {
            let wake = min(deadline, nextWake ?? deadline)
            let ready: [PollEvents]
            do {
                ready = try poll(pollRequests, deadline: wake)
            } catch {
                throw .system("poll", error.rawValue)
            }
            events = try service(d0Ready: ready[0].contains(.readable), d1Ready: ready[1].contains(.readable))
            if ContinuousClock.now >= deadline { break }
        }
        return events
    }

    /// What a poll loop watches: D0's and D1's edge queues, in that order (see `service`).
    public var pollRequests: [(FileDescriptor, PollEvents)] {
        [(FileDescriptor(rawValue: d0.fileDescriptor), .readable), (FileDescriptor(rawValue: d1.fileDescriptor), .readable)]
    }

    /// When `service` must run even if no edge came: a held edge is due, or a frame's gap ends.
    public var nextWake: ContinuousClock.Instant? {
        var wake: ContinuousClock.Instant?
        if let due = decoder.deadline { wake = Self.instant(due) }
        if let oldest = pending.first {
            let due = Self.instant(oldest.timestamp &+ reorderWindow)
            wake = wake.map { min($0, due) } ?? due
        }
        return wake
    }

    /// Reads the edges of the lines a poll found readable, feeds those every earlier edge can
    /// have arrived for, and ends a frame whose gap has passed: the frames that ended. Never
    /// blocks (a line is read only when readable).
    public func service(d0Ready: Bool, d1Ready: Bool) throws(WiegandListenerError) -> [WiegandEvent] {
        var events: [WiegandEvent] = []
        let startedReading = Monotonic.nanoseconds()
        do {
            if d0Ready { pending += try d0.readEvents().filter { $0.kind == .falling }.map { WiegandEdge(line: .d0, timestamp: $0.timestampNanoseconds) } }
            if d1Ready { pending += try d1.readEvents().filter { $0.kind == .falling }.map { WiegandEdge(line: .d1, timestamp: $0.timestampNanoseconds) } }
        } catch {
            throw .gpio(error)
        }
        pending.sort { $0.timestamp < $1.timestamp }
        let settled = startedReading > reorderWindow ? startedReading - reorderWindow : 0
        let due = pending.prefix { $0.timestamp <= settled }
        pending.removeFirst(due.count)
        for edge in due { if let event = decoder.feed(edge) { events.append(event) } }
        if pending.isEmpty, let event = decoder.poll(now: Monotonic.nanoseconds()) { events.append(event) }
        return events
    }

    /// The ContinuousClock instant of a CLOCK_MONOTONIC timestamp (both count from boot on Linux).
    static func instant(_ monotonic: UInt64) -> ContinuousClock.Instant {
        let now = Monotonic.nanoseconds()
        let ahead = monotonic > now ? monotonic - now : 0
        return .now + .nanoseconds(Int64(min(ahead, UInt64(Int64.max))) + 1)
    }
}

/// Why a Wiegand reader's lines cannot be listened to, with the fix.
public enum WiegandListenerError: Error, Equatable, Sendable, CustomStringConvertible {
    case sameLine(String)
    case noSuchLine(Int, chip: String, lineCount: Int)
    case noSuchName(String, role: String, chip: String)
    case gpio(GPIOError)
    case system(String, Int32)

    public var description: String {
        switch self {
        case .sameLine(let line): "D0 and D1 are both line \(line); a Wiegand reader has two data lines: give each its own."
        case .noSuchLine(let offset, let chip, let count): "\(chip) has no line \(offset) (it has lines 0 to \(count - 1))."
        case .noSuchName(let name, let role, let chip): "\(chip) has no line named \"\(name)\" for \(role); give its offset, or see the names with gpioinfo \(chip)."
        case .gpio(let error): "\(error)"
        case .system(let call, let errno): "\(call) failed: errno \(errno)."
        }
    }
}
