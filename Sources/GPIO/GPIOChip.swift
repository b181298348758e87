// The typed GPIO interface every backend implements: chip → line request → values and events,
// the shape of libgpiod. DoorLock talks only to these protocols, so the in-memory backend can
// stand in for a real chip in tests and in `--sim`.

/// Which edges of an input produce events on its file descriptor.
public enum EdgeDetection: String, Sendable, Codable, CaseIterable {
    /// No events; the line is only read with `value()`. Its `fileDescriptor` is -1.
    case none
    /// Only inactive → active transitions.
    case rising
    /// Only active → inactive transitions.
    case falling
    /// Both transitions (what the door lock uses for its inputs).
    case both
}

/// The pull resistor to configure on an input line.
public enum Bias: String, Sendable, Codable, CaseIterable {
    /// Leave whatever the kernel or firmware configured (the default; works on every kernel).
    case asIs = "as-is"
    /// No pull resistor (the line is driven from outside, e.g. a module's CMOS touch output).
    case disabled
    /// Pull up (a switch or button to ground).
    case pullUp = "pull-up"
    /// Pull down (a switch to 3.3 V).
    case pullDown = "pull-down"
}

/// One edge seen on an input line.
public struct EdgeEvent: Sendable, Equatable, CustomStringConvertible {
    /// The direction of an edge, in *logical* terms: `.rising` means the line became active.
    /// For an active-low line that is a physical high → low transition (the kernel reports
    /// it the same way).
    public enum Kind: String, Sendable, Equatable {
        case rising
        case falling
    }

    public var kind: Kind
    /// When the edge happened, on CLOCK_MONOTONIC (the kernel's clock for line events since
    /// Linux 5.7; the memory backend uses the same clock unless a test injects its own).
    public var timestampNanoseconds: UInt64
    /// The line's offset on its chip.
    public var offset: Int

    public init(kind: Kind, timestampNanoseconds: UInt64, offset: Int) {
        self.kind = kind
        self.timestampNanoseconds = timestampNanoseconds
        self.offset = offset
    }

    public var description: String { "\(kind) on line \(offset) at \(timestampNanoseconds) ns" }
}

/// A GPIO chip (one `/dev/gpiochipN`, or a simulated one) from which lines are requested.
public protocol GPIOChip: AnyObject, Sendable {
    /// The kernel name, e.g. `gpiochip0`.
    var name: String { get }
    /// The driver's label, e.g. `pinctrl-bcm2711`, `pinctrl-rp1` or `gpio-vm`.
    var label: String { get }
    /// How many lines the chip has; valid offsets are `0..<lineCount`.
    var lineCount: Int { get }

    /// Whether `requestInput` can set the kernel's input debouncer (a nonzero period).
    var supportsDebounce: Bool { get }

    /// Requests `offset` as an input. `activeLow` makes `value()` and the edge kinds logical.
    /// `debounceMicroseconds` (0: none) has the kernel report an edge only once the level was
    /// steady that long; a chip without `supportsDebounce` refuses a nonzero period.
    func requestInput(
        offset: Int, consumer: String, edges: EdgeDetection, bias: Bias, activeLow: Bool,
        debounceMicroseconds: Int
    ) throws(GPIOError) -> any InputLine

    /// Requests `offset` as an output driven to `initialValue` (logical) from the first instant.
    func requestOutput(
        offset: Int, consumer: String, initialValue: Bool, activeLow: Bool
    ) throws(GPIOError) -> any OutputLine

    /// The offset of the first line called `name`, or nil when no line has that name.
    func lineOffset(named name: String) -> Int?
}

/// A requested input line.
public protocol InputLine: AnyObject, Sendable {
    /// The line's offset on its chip.
    var offset: Int { get }
    /// Readable (POLLIN) while edge events are pending; poll it beside every other descriptor.
    /// -1 when the line was requested with `.none` edges (poll ignores negative descriptors).
    /// The descriptor belongs to the line: do not close it; it is invalid after `release()`.
    var fileDescriptor: Int32 { get }
    /// The logical level: true when the line is active (low, for an active-low line).
    func value() throws(GPIOError) -> Bool
    /// Every pending edge event, oldest first, without blocking; empty when none is pending.
    func readEvents() throws(GPIOError) -> [EdgeEvent]
    /// Gives the line back to the kernel. Safe to call twice; also done on deinit.
    func release()
}

/// A requested output line.
public protocol OutputLine: AnyObject, Sendable {
    /// The line's offset on its chip.
    var offset: Int { get }
    /// Drives the line to its active (true) or inactive (false) level.
    func set(_ active: Bool) throws(GPIOError)
    /// Drives the line inactive, then gives it back (a door relay is never left energised).
    /// Safe to call twice; also done on deinit.
    func release()
}

extension GPIOChip {
    /// Requests `offset` as an input without a debouncer.
    public func requestInput(
        offset: Int, consumer: String, edges: EdgeDetection, bias: Bias, activeLow: Bool
    ) throws(GPIOError) -> any InputLine {
        try requestInput(offset: offset, consumer: consumer, edges: edges, bias: bias, activeLow: activeLow,
                         debounceMicroseconds: 0)
    }
}

extension GPIOChip {
    /// A line as a config or a command line gives it: an offset ("20") or a line name
    /// ("wiegand-d0"); nil when it is neither on this chip.
    public func lineOffset(spec: String) -> Int? {
        if let offset = Int(spec) { return offset }
        return lineOffset(named: spec)
    }
}
