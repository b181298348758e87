import PrintableText

/// The keypad the config names, as doctor found it (gathered by DoctorRun through the input
/// subsystem, without grabbing it: a running service keeps it).
public struct KeypadFacts: Sendable, Equatable {
    /// What the config's `keypad.device` says: a path or a device name.
    public var spec: String
    /// Where it was found; nil when nothing answers to `spec`.
    public var path: String?
    /// The name the device gives itself.
    public var name: String?
    /// Why it cannot be used as a keypad (permission, no digit keys); nil when it can.
    public var problem: String?
    /// Whether the problem is permission (so the fix is a group).
    public var permissionDenied = false
    /// The keypads this user can read, "NAME (PATH)".
    public var keypads: [String] = []

    public init(spec: String) { self.spec = spec }
}

extension DoctorChecks {
    static func keypad(_ context: DoctorContext) -> DoctorCheck {
        let title = "Keypad"
        guard let facts = context.facts.keypad else {
            return DoctorCheck("keypad", title, .skipped, "no keypad in the config (\"keypad\": {\"device\": …}; see docs/keypad.md).")
        }
        let spec = Printable.escaped(facts.spec)
        let others = facts.keypads.isEmpty ? "no keypad is connected" : "keypads here: " + facts.keypads.map { Printable.escaped($0) }.joined(separator: ", ")
        guard let path = facts.path else {
            return DoctorCheck("keypad", title, .problem, "the config names \"\(spec)\", which is not here (\(others)).",
                               fix: "Plug the keypad in (a matrix keypad needs its overlay in config.txt, docs/keypad.md), or set keypad.device to one of the keypads above (`fpmod keypad list`).")
        }
        let shown = facts.name.map { "\(Printable.escaped($0)) (\(path))" } ?? path
        if let problem = facts.problem {
            return DoctorCheck("keypad", title, .problem, "\(shown): \(Printable.escaped(problem))",
                               fix: facts.permissionDenied ? groupFix(group: "input", user: context.facts.user) : "Set keypad.device to a device with digit keys (`fpmod keypad list`).")
        }
        return DoctorCheck("keypad", title, .ok, "\(shown) has digit keys and can be read; try it with `fpmod keypad test \(path)` while the service is stopped.")
    }
}
