import Synchronization

/// An in-memory GPIO chip with the same interface as `LibgpiodChip`, for tests and `--sim`.
///
/// The program side requests lines exactly as on a real chip. The test side plays the outside
/// world: it drives input levels with `drive(offset:level:)` (producing edge events and making
/// the line's descriptor readable) and watches outputs with `outputLevel(offset:)` and
/// `outputHistory`. Levels on the test side are physical (what a voltmeter shows); the
/// program side sees logical levels, as with libgpiod.
public final class MemoryChip: GPIOChip {
    /// One change of an output's level, as the test side sees it.
    public struct OutputChange: Sendable, Equatable {
        public var offset: Int
        /// The logical level the program asked for.
        public var active: Bool
        /// The physical level on the pin.
        public var level: Bool
        public var timestampNanoseconds: UInt64

        public init(offset: Int, active: Bool, level: Bool, timestampNanoseconds: UInt64) {
            self.offset = offset
            self.active = active
            self.level = level
            self.timestampNanoseconds = timestampNanoseconds
        }
    }

    public let name: String
    public let label: String
    public let lineCount: Int
    private let supportsBias: Bool
    public let supportsDebounce: Bool
    private let clock: @Sendable () -> UInt64
    private let state: Mutex<MemoryChipState>

    /// A chip with one line per entry of `lineNames` (nil leaves that offset unnamed).
    /// `supportsBias: false` makes pull requests fail like on a pre-5.5 kernel;
    /// `supportsDebounce: false` refuses a debounce period like libgpiod 1 does.
    /// `clock` stamps events and output changes (CLOCK_MONOTONIC by default).
    public init(
        name: String = "memorychip0", label: String = "memory", lineNames: [String?],
        supportsBias: Bool = true, supportsDebounce: Bool = true,
        clock: @escaping @Sendable () -> UInt64 = monotonicNanoseconds
    ) {
        self.name = name
        self.label = label
        self.lineCount = lineNames.count
        self.supportsBias = supportsBias
        self.supportsDebounce = supportsDebounce
        self.clock = clock
        self.state = Mutex(MemoryChipState(lines: lineNames.map { MemoryLineState(name: $0) }))
    }

    /// A chip of `lineCount` unnamed lines.
    public convenience init(name: String = "memorychip0", label: String = "memory", lineCount: Int) {
        self.init(name: name, label: label, lineNames: Array(repeating: nil, count: lineCount))
    }

    deinit {
        state.withLock { state in
            for line in state.lines { line.owner?.pipe?.close() }
        }
    }

    // MARK: Program side (GPIOChip)

    public func lineOffset(named lineName: String) -> Int? {
        state.withLock { $0.lines.firstIndex { $0.name == lineName } }
    }

    /// The debounce period is recorded (`debounceMicroseconds(offset:)`), not applied: the test
    /// side's `drive` is the already debounced level. The kernel's debouncer is exercised on
    /// gpio-sim in the GPIO VM.
    public func requestInput(
        offset: Int, consumer: String, edges: EdgeDetection, bias: Bias, activeLow: Bool,
        debounceMicroseconds: Int
    ) throws(GPIOError) -> any InputLine {
        try checkRange(offset)
        if bias != .asIs && !supportsBias { throw .biasUnsupported(chip: name, offset: offset, bias: bias) }
        if debounceMicroseconds != 0 && !supportsDebounce {
            throw .debounceUnsupported(chip: name, offset: offset, libgpiodVersion: "1 (simulated)")
        }
        let pipe: EventPipe? = edges == .none ? nil : try EventPipe()
        let id = try state.withLock { state throws(GPIOError) -> Int in
            if let holder = state.lines[offset].owner {
                pipe?.close()
                throw .lineBusy(chip: name, offset: offset, consumer: holder.consumer)
            }
            return state.claim(offset, MemoryLineOwner(
                id: 0, consumer: consumer, isOutput: false, activeLow: activeLow,
                bias: bias, edges: edges, debounceMicroseconds: debounceMicroseconds, pipe: pipe))
        }
        return MemoryInputLine(chip: self, offset: offset, ownerID: id, fileDescriptor: pipe?.readEnd ?? -1)
    }

    public func requestOutput(
        offset: Int, consumer: String, initialValue: Bool, activeLow: Bool
    ) throws(GPIOError) -> any OutputLine {
        try checkRange(offset)
        let now = clock()
        let id = try state.withLock { state throws(GPIOError) -> Int in
            if let holder = state.lines[offset].owner {
                throw .lineBusy(chip: name, offset: offset, consumer: holder.consumer)
            }
            let id = state.claim(offset, MemoryLineOwner(
                id: 0, consumer: consumer, isOutput: true, activeLow: activeLow,
                bias: .asIs, edges: .none, pipe: nil))
            state.setOutput(offset, active: initialValue, at: now, recordEvenIfUnchanged: true)
            return id
        }
        return MemoryOutputLine(chip: self, offset: offset, ownerID: id)
    }

    private func checkRange(_ offset: Int) throws(GPIOError) {
        guard (0..<lineCount).contains(offset) else {
            throw .offsetOutOfRange(chip: name, offset: offset, lineCount: lineCount)
        }
    }

    // MARK: Test side

    /// Applies a physical level to a line from outside (a finger, a button, a reed switch).
    /// On an input requested with matching edge detection, a change queues an edge event and
    /// makes the line's descriptor readable.
    public func drive(offset: Int, level: Bool) {
        let now = clock()
        state.withLock { $0.drive(offset, level: level, at: now) }
    }

    /// Stops driving a line: its level follows the requested bias again (high only with pull-up).
    public func float(offset: Int) {
        let now = clock()
        state.withLock { $0.drive(offset, level: nil, at: now) }
    }

    /// The physical level currently on a line (what the program drives, for an output).
    public func level(offset: Int) -> Bool {
        state.withLock { $0.lines[offset].physicalLevel }
    }

    /// The physical level the program last drove on `offset`, or nil if it never drove it.
    public func outputLevel(offset: Int) -> Bool? {
        state.withLock { $0.lines[offset].outputLevel }
    }

    /// Every output change so far, oldest first (each request records its initial level).
    public var outputHistory: [OutputChange] {
        state.withLock { $0.history }
    }

    /// The debounce period `offset` was requested with (0: none), or nil when it is free.
    public func debounceMicroseconds(offset: Int) -> Int? {
        state.withLock { $0.lines[offset].owner?.debounceMicroseconds }
    }

    /// Who holds `offset` (the consumer name given at request), or nil when it is free.
    public func consumer(offset: Int) -> String? {
        state.withLock { $0.lines[offset].owner?.consumer }
    }

    // MARK: Used by the line objects

    func inputValue(offset: Int, ownerID: Int) throws(GPIOError) -> Bool {
        try state.withLock { state throws(GPIOError) -> Bool in
            let owner = try state.owner(offset, ownerID, chip: name)
            return state.lines[offset].physicalLevel != owner.activeLow
        }
    }

    func takeEvents(offset: Int, ownerID: Int) throws(GPIOError) -> [EdgeEvent] {
        try state.withLock { state throws(GPIOError) -> [EdgeEvent] in
            let owner = try state.owner(offset, ownerID, chip: name)
            owner.pipe?.drain()
            defer { state.lines[offset].pending.removeAll() }
            return state.lines[offset].pending
        }
    }

    func setOutput(offset: Int, ownerID: Int, active: Bool) throws(GPIOError) {
        let now = clock()
        try state.withLock { state throws(GPIOError) in
            _ = try state.owner(offset, ownerID, chip: name)
            state.setOutput(offset, active: active, at: now, recordEvenIfUnchanged: false)
        }
    }

    /// Frees the line; an output is driven inactive first. Does nothing for a stale owner.
    func release(offset: Int, ownerID: Int) {
        let now = clock()
        state.withLock { state in
            guard let owner = state.lines[offset].owner, owner.id == ownerID else { return }
            if owner.isOutput {
                state.setOutput(offset, active: false, at: now, recordEvenIfUnchanged: false)
            }
            owner.pipe?.close()
            state.lines[offset].owner = nil
            state.lines[offset].pending.removeAll()
        }
    }
}
