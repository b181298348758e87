import GPIO
import Glibc
import Posix
import Wiegand

/// A Wiegand output to a legacy access panel on two GPIO lines (D0, D1): each frame from
/// `WiegandEncoder`'s schedule, driven against absolute deadlines on CLOCK_MONOTONIC, so a late
/// wake-up shortens the wait before the next pulse instead of shifting every later one. The lines
/// rest high (the panel's inputs are pulled up; a pulse pulls one low), also after an error.
///
/// One owner sends; a frame takes the calling thread for its duration (26 bits at 1 ms: 26 ms).
public final class WiegandSender: Sendable {
    private let d0: any OutputLine
    private let d1: any OutputLine
    public let encoder: WiegandEncoder
    /// When the lines were taken (CLOCK_MONOTONIC ns): the first frame waits until they have
    /// rested high for `restBeforeFirstFrame`, as a reader's lines do after power-up, so the
    /// panel never reads the step from its own pull-up to our high as the start of a bit.
    private let requestedAt: UInt64
    public static let restBeforeFirstFrame: UInt64 = 50_000_000

    /// What one frame's pulses really were, measured around each `set`: for bring-up, and so a
    /// machine too loaded to keep the timing is seen rather than guessed.
    public struct Sent: Sendable {
        public var pulses: Int
        /// The widest a pulse came out (from the call that pulled it low to the one that let go).
        public var widestPulse: UInt64
        /// The latest a pulse started after its scheduled time.
        public var latestStart: UInt64
        public var duration: UInt64
    }

    /// Requests both lines as outputs, resting high, after checking they differ and exist.
    public init(chip: any GPIOChip, d0 d0Offset: Int, d1 d1Offset: Int, encoder: WiegandEncoder,
                consumer: String = "fpmod-wiegand-out") throws(WiegandSenderError) {
        guard d0Offset != d1Offset else { throw .sameLine(String(d0Offset)) }
        for offset in [d0Offset, d1Offset] where !(0..<chip.lineCount).contains(offset) {
            throw .noSuchLine(offset, chip: chip.name, lineCount: chip.lineCount)
        }
        // Active low: "active" is the pulse, the line's inactive level is high.
        let first: any OutputLine
        do { first = try chip.requestOutput(offset: d0Offset, consumer: consumer + "-d0", initialValue: false, activeLow: true) } catch {
            throw .gpio(error)
        }
        do { d1 = try chip.requestOutput(offset: d1Offset, consumer: consumer + "-d1", initialValue: false, activeLow: true) } catch {
            first.release()
            throw .gpio(error)
        }
        d0 = first
        self.encoder = encoder
        requestedAt = Monotonic.nanoseconds()
    }

    deinit {
        d0.release()
        d1.release()
    }

    /// Sends a card's frame.
    @discardableResult
    public func send(_ credential: WiegandCredential) throws(WiegandSenderError) -> Sent {
        try drive(encoder.schedule(credential))
    }

    /// Sends a keypad's burst for one key.
    @discardableResult
    public func send(_ key: WiegandKey, burst: WiegandKeyBurst) throws(WiegandSenderError) -> Sent {
        let pulses: [WiegandPulse]
        do { pulses = try encoder.schedule(key, burst: burst) } catch { throw .encoder(error) }
        return try drive(pulses)
    }

    private func drive(_ pulses: [WiegandPulse]) throws(WiegandSenderError) -> Sent {
        var sent = Sent(pulses: 0, widestPulse: 0, latestStart: 0, duration: 0)
        // A millisecond to settle before the first pulse, and the lines' first rest (see above).
        let origin = max(Monotonic.nanoseconds() + 1_000_000, requestedAt + Self.restBeforeFirstFrame)
        defer {
            // Whatever happened, both lines rest high after the frame.
            try? d0.set(false)
            try? d1.set(false)
        }
        for pulse in pulses {
            let line = pulse.line == .d0 ? d0 : d1
            Self.sleep(until: origin + pulse.start)
            let started = Monotonic.nanoseconds()
            do { try line.set(true) } catch { throw .gpio(error) }
            Self.sleep(until: started + pulse.width)
            do { try line.set(false) } catch { throw .gpio(error) }
            let ended = Monotonic.nanoseconds()
            sent.pulses += 1
            sent.widestPulse = max(sent.widestPulse, ended - started)
            sent.latestStart = max(sent.latestStart, started > origin + pulse.start ? started - (origin + pulse.start) : 0)
        }
        sent.duration = Monotonic.nanoseconds() - origin
        return sent
    }

    /// `clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME)` to `deadline`, again after a signal.
    static func sleep(until deadline: UInt64) {
        var request = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &request, nil) == EINTR {}
    }
}

/// Why a Wiegand output cannot be driven, with the fix.
public enum WiegandSenderError: Error, Equatable, Sendable, CustomStringConvertible {
    case sameLine(String)
    case noSuchLine(Int, chip: String, lineCount: Int)
    case noSuchName(String, role: String, chip: String)
    case encoder(WiegandEncoderError)
    case gpio(GPIOError)

    public var description: String {
        switch self {
        case .sameLine(let line): "D0 and D1 are both line \(line); a panel's Wiegand input has two data lines: give each its own."
        case .noSuchLine(let offset, let chip, let count): "\(chip) has no line \(offset) (it has lines 0 to \(count - 1))."
        case .noSuchName(let name, let role, let chip): "\(chip) has no line named \"\(name)\" for \(role); give its offset, or see the names with gpioinfo \(chip)."
        case .encoder(let error): "\(error)"
        case .gpio(let error): "\(error)"
        }
    }
}
