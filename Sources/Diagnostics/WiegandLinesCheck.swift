import PrintableText

/// The GPIO lines the config gives a Wiegand reader (`wiegand`) and a panel (`wiegandOut`), beside
/// the door's own lines (relay, touch, LEDs…), as plain values: DoctorRun reads them from the
/// config and the board preset, the check compares them.
public struct WiegandLineFacts: Sendable, Equatable {
    /// One use of a line: the config key (`wiegand.d0`, `relay`) and the line as given (an offset
    /// or a name); `alias` is the other spelling when known (a preset line's name or offset).
    public struct Use: Sendable, Equatable {
        public var key: String
        public var line: String
        public var alias: String?

        public init(key: String, line: String, alias: String? = nil) {
            self.key = key
            self.line = line
            self.alias = alias
        }

        func sameLine(as other: Use) -> Bool {
            let mine = Set([line] + (alias.map { [$0] } ?? [])), theirs = Set([other.line] + (other.alias.map { [$0] } ?? []))
            return !mine.isDisjoint(with: theirs)
        }
    }

    public var wiegand: [Use] = []
    public var door: [Use] = []

    public init() {}
}

extension DoctorChecks {
    static func wiegandLines(_ context: DoctorContext) -> DoctorCheck {
        let title = "Wiegand lines"
        guard let facts = context.facts.wiegandLines, !facts.wiegand.isEmpty else {
            return DoctorCheck("wiegand", title, .skipped, "no Wiegand reader or panel in the config (\"wiegand\", \"wiegandOut\"; see docs/wiegand.md).")
        }
        var clashes: [String] = []
        for (index, use) in facts.wiegand.enumerated() {
            for other in facts.wiegand[(index + 1)...] + facts.door where use.sameLine(as: other) {
                let line = Printable.escaped(other.line) + (other.alias.map { " (\(Printable.escaped($0)))" } ?? "")
                clashes.append("\(use.key) and \(other.key) are both line \(line)")
            }
        }
        if !clashes.isEmpty {
            return DoctorCheck("wiegand", title, .problem, clashes.joined(separator: "; ") + ".",
                               fix: "Give each Wiegand data line a GPIO of its own (docs/wiegand.md suggests BCM 20 and 21 for a reader, 19 and 26 for a panel), then `fpmod config check`.")
        }
        let listed = facts.wiegand.map { "\($0.key) \(Printable.escaped($0.line))" }.joined(separator: ", ")
        return DoctorCheck("wiegand", title, .ok, "\(listed); no other role of the door uses them. Bring up a reader with `fpmod wiegand listen`, a panel with `fpmod wiegand send`, while the service is stopped.")
    }
}
