import GPIO
import Wiegand

/// `fpmod wiegand listen`: each frame a reader sends, decoded (bit count, facility, number,
/// parity) or rejected with the reason, as an installer needs when wiring one up.
public enum WiegandWatch {
    /// The chip and lines by name or offset, checked before anything is requested.
    public static func open(chip name: String, d0: String, d1: String, timing: WiegandDecoder.Timing) throws(WiegandListenerError) -> WiegandListener {
        guard d0 != d1 else { throw .sameLine(d0) }
        let chip: LibgpiodChip
        do { chip = try LibgpiodChip(name) } catch { throw .gpio(error) }
        func offset(_ line: String, _ role: String) throws(WiegandListenerError) -> Int {
            guard let found = chip.lineOffset(spec: line) else { throw .noSuchName(line, role: role, chip: chip.name) }
            return found
        }
        return try WiegandListener(chip: chip, d0: try offset(d0, "D0"), d1: try offset(d1, "D1"), timing: timing)
    }

    /// Listens until `deadline` or `frames` frames (cards, keys and rejections alike).
    public static func run(_ listener: WiegandListener, until deadline: ContinuousClock.Instant, frames: Int?,
                           show: (String) -> Void) throws(WiegandListenerError) -> Int {
        var seen = 0
        while ContinuousClock.now < deadline, seen < (frames ?? .max) {
            for event in try listener.next(until: deadline) {
                seen += 1
                show(line(event))
            }
        }
        return seen
    }

    public static func line(_ event: WiegandEvent) -> String {
        switch event {
        case .card(let format, let facility, let number, let bits):
            "\(format) card: facility \(facility), number \(number), parity ok; bits \(bits)"
        case .key(let key, let bits):
            "key \(key) (\(bits.count)-bit burst \(bits))"
        case .rejected(let reason):
            "rejected: \(reason)"
        }
    }
}
