import Keypad
import Posix

/// `fpmod keypad test`, like `evtest` but for a door: each key as it arrives (an entry's first
/// digit shown, the rest as dots, so the installer sees the keypad works without the PIN being
/// shown), and how each entry ends. Entries are read as the door reads them (`KeypadEntry`),
/// but nothing is checked: no PIN ever leaves this watch.
public enum KeypadWatch {
    public struct Summary: Equatable, Sendable {
        public var keys = 0
        /// Entries that ended with submit and would go to the PIN check.
        public var entries = 0
        public var refused = 0
        public var timedOut = 0
        public var cleared = 0
        public var eventsLost = 0
    }

    /// Watches `keypad` until `deadline`, or until `entriesWanted` entries were submitted; each
    /// line goes to `show`.
    public static func run(_ keypad: EvdevKeypad, settings: KeypadEntry.Settings, until deadline: ContinuousClock.Instant,
                           entriesWanted: Int? = nil, show: (String) -> Void) throws(KeypadInputError) -> Summary {
        var entry = KeypadEntry(settings)
        var summary = Summary()
        while ContinuousClock.now < deadline, summary.entries < (entriesWanted ?? .max) {
            // Wake for the next key, or when the entry in progress is due to be dropped.
            var wake = deadline
            if let due = entry.deadline { wake = min(wake, .now + .seconds(max(0, due - Monotonic.seconds()))) }
            let readings = try keypad.read(until: wake)
            if readings.isEmpty, case .timedOut = entry.expire(at: Monotonic.seconds()) {
                summary.timedOut += 1
                show("(entry dropped: no key for \(Self.seconds(settings.pause)))")
                continue
            }
            for reading in readings {
                switch reading {
                case .eventsLost:
                    summary.eventsLost += 1
                    if entry.isEntering { _ = entry.press(.clear, at: Monotonic.seconds()) }
                    show("(keys were lost: the kernel's event buffer overflowed; the entry was dropped)")
                case .pressed(let key, let time):
                    summary.keys += 1
                    let shownDigit = entry.count == 0
                    switch entry.press(key, at: time) {
                    case .digitTaken:
                        if case .digit(let digit) = key { show("key \(shownDigit ? String(digit) : "•")") }
                    case .submitted(var secret):
                        summary.entries += 1
                        show("# an entry of \(secret.count) digits: the door would check it as a PIN")
                        secret.wipe()
                    case .rejected(.tooShort):
                        summary.refused += 1
                        show("# too short for a PIN (\(settings.minimumDigits) to \(settings.maximumDigits) digits): the door would say wrong")
                    case .rejected(.tooLong):
                        summary.refused += 1
                        show("key • (more than \(settings.maximumDigits) digits: the entry is dropped, keys ignored until # or *)")
                    case .cleared:
                        summary.cleared += 1
                        show("* cleared")
                    case .timedOut:
                        summary.timedOut += 1
                    case .ignored:
                        show(key == .submit ? "# (nothing typed)" : key == .clear ? "* (nothing typed)" : "key ignored")
                    }
                }
            }
        }
        return summary
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
