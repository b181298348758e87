/// An input line of a `MemoryChip`. `ownerID` ties it to one request, so a released line
/// object cannot touch a later request of the same offset.
final class MemoryInputLine: InputLine {
    let offset: Int
    let fileDescriptor: Int32
    private let chip: MemoryChip
    private let ownerID: Int

    init(chip: MemoryChip, offset: Int, ownerID: Int, fileDescriptor: Int32) {
        self.chip = chip
        self.offset = offset
        self.ownerID = ownerID
        self.fileDescriptor = fileDescriptor
    }

    deinit { release() }

    func value() throws(GPIOError) -> Bool { try chip.inputValue(offset: offset, ownerID: ownerID) }
    func readEvents() throws(GPIOError) -> [EdgeEvent] { try chip.takeEvents(offset: offset, ownerID: ownerID) }
    func release() { chip.release(offset: offset, ownerID: ownerID) }
}

/// An output line of a `MemoryChip`.
final class MemoryOutputLine: OutputLine {
    let offset: Int
    private let chip: MemoryChip
    private let ownerID: Int

    init(chip: MemoryChip, offset: Int, ownerID: Int) {
        self.chip = chip
        self.offset = offset
        self.ownerID = ownerID
    }

    deinit { release() }

    func set(_ active: Bool) throws(GPIOError) { try chip.setOutput(offset: offset, ownerID: ownerID, active: active) }
    func release() { chip.release(offset: offset, ownerID: ownerID) }
}
