/// Who holds a memory line and how it was requested.
struct MemoryLineOwner: Sendable {
    var id: Int
    var consumer: String
    var isOutput: Bool
    var activeLow: Bool
    var bias: Bias
    var edges: EdgeDetection
    var debounceMicroseconds = 0
    var pipe: EventPipe?
}

/// One line of a `MemoryChip`.
struct MemoryLineState: Sendable {
    var name: String?
    /// The level applied from outside by the test; nil while nothing drives the line.
    var externalLevel: Bool?
    /// The physical level the program last drove, if it ever used the line as an output.
    var outputLevel: Bool?
    var owner: MemoryLineOwner?
    var pending: [EdgeEvent] = []

    init(name: String?) { self.name = name }

    /// What the pin carries: the program's drive for an output; otherwise the outside drive,
    /// or the pull resistor when nothing drives it (floating lines read low).
    var physicalLevel: Bool {
        if let owner, owner.isOutput, let outputLevel { return outputLevel }
        return externalLevel ?? (owner?.bias == .pullUp)
    }
}

/// Everything a `MemoryChip` guards with its mutex.
struct MemoryChipState: Sendable {
    var lines: [MemoryLineState]
    var history: [MemoryChip.OutputChange] = []
    private var nextOwnerID = 1

    init(lines: [MemoryLineState]) { self.lines = lines }

    mutating func claim(_ offset: Int, _ owner: MemoryLineOwner) -> Int {
        var owner = owner
        owner.id = nextOwnerID
        nextOwnerID += 1
        lines[offset].owner = owner
        lines[offset].pending.removeAll()
        return owner.id
    }

    func owner(_ offset: Int, _ id: Int, chip: String) throws(GPIOError) -> MemoryLineOwner {
        guard let owner = lines[offset].owner, owner.id == id else {
            throw .lineReleased(chip: chip, offset: offset)
        }
        return owner
    }

    mutating func drive(_ offset: Int, level: Bool?, at time: UInt64) {
        let before = lines[offset].physicalLevel
        lines[offset].externalLevel = level
        let after = lines[offset].physicalLevel
        guard before != after, let owner = lines[offset].owner, !owner.isOutput else { return }
        let becameActive = after != owner.activeLow
        let wanted: Bool
        switch owner.edges {
        case .none: wanted = false
        case .both: wanted = true
        case .rising: wanted = becameActive
        case .falling: wanted = !becameActive
        }
        guard wanted else { return }
        lines[offset].pending.append(
            EdgeEvent(kind: becameActive ? .rising : .falling, timestampNanoseconds: time, offset: offset))
        owner.pipe?.signal()
    }

    mutating func setOutput(_ offset: Int, active: Bool, at time: UInt64, recordEvenIfUnchanged: Bool) {
        guard let owner = lines[offset].owner else { return }
        let level = active != owner.activeLow
        let changed = lines[offset].outputLevel != level
        lines[offset].outputLevel = level
        if changed || recordEvenIfUnchanged {
            history.append(.init(offset: offset, active: active, level: level, timestampNanoseconds: time))
        }
    }
}
