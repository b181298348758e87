/// How one doctor check came out. Only `.problem` makes `fpmod doctor` fail: a warning is
/// something that works today but is known to bite later.
public enum DoctorVerdict: String, Sendable, Equatable {
    case ok
    case warning
    case problem
    case skipped

    /// The mark in the checklist.
    public var symbol: String {
        switch self {
        case .ok: "✓"
        case .warning: "!"
        case .problem: "✗"
        case .skipped: "-"
        }
    }
}

/// One line of the checklist: what was looked at, what was seen, and what to do about it.
public struct DoctorCheck: Sendable, Equatable {
    /// Stable identifier for scripts (`uart.console`, `module.baud` …).
    public var id: String
    /// Short title for people ("Serial console").
    public var title: String
    public var verdict: DoctorVerdict
    /// The fact seen, in words ("/dev/serial0 → ttyS0, the mini UART").
    public var seen: String
    /// What to do; nil when nothing needs doing.
    public var fix: String?

    public init(_ id: String, _ title: String, _ verdict: DoctorVerdict, _ seen: String, fix: String? = nil) {
        self.id = id
        self.title = title
        self.verdict = verdict
        self.seen = seen
        self.fix = fix
    }
}
