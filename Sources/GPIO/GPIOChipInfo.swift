/// What `LibgpiodChip.listChips()` found about one `/dev/gpiochipN`.
public struct GPIOChipInfo: Sendable, Equatable, CustomStringConvertible {
    /// Kernel name, e.g. `gpiochip0`.
    public var name: String
    /// Device path, e.g. `/dev/gpiochip0`.
    public var path: String
    /// Driver label, e.g. `pinctrl-rp1`; empty when the chip could not be opened.
    public var label: String
    /// Number of lines; 0 when the chip could not be opened.
    public var lineCount: Int
    /// Why the chip could not be opened (e.g. "Permission denied"), or nil.
    public var problem: String?

    public init(name: String, path: String, label: String, lineCount: Int, problem: String? = nil) {
        self.name = name
        self.path = path
        self.label = label
        self.lineCount = lineCount
        self.problem = problem
    }

    public var description: String {
        if let problem { return "\(name) (cannot open: \(problem))" }
        return "\(name) [\(label)] (\(lineCount) lines)"
    }
}
