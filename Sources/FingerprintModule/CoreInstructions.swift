import FingerprintProtocol

/// The common core (protocol.md §2.1): one call per instruction, typed results.
extension FingerprintModule {
    /// GenImg: capture an image into the image buffer.
    public func captureImage() throws(ModuleError) -> CaptureResult {
        try capture(.genImg)
    }

    func capture(_ command: Command) throws(ModuleError) -> CaptureResult {
        let ack = try perform(command)
        switch ack.code.rawValue {
        case 0x00: return .captured
        case 0x02: return .noFinger
        case 0x03, 0x04, 0x05, 0x06, 0x07: return .failed(ack.code)
        default: throw moduleError(command.instruction, ack.code)
        }
    }

    /// Img2Tz: extract features from the image buffer into feature buffer `buffer` (1, 2, …).
    public func extractFeatures(buffer: UInt8 = CharBuffer.one) throws(ModuleError) -> FeatureResult {
        let ack = try perform(.img2Tz(buffer: buffer))
        switch ack.code.rawValue {
        case 0x00: return .ok
        case 0x04, 0x05, 0x06, 0x07: return .poorImage(ack.code)
        case 0x15: return .noImage
        default: throw moduleError(.img2Tz, ack.code)
        }
    }

    /// Match: compare feature buffers 1 and 2. The score, or nil when they do not match (`08`).
    /// (R503 gives Match a different meaning, protocol.md §9 #11: use `registerModel()` to ask
    /// "same finger?" during enrollment.)
    public func match() throws(ModuleError) -> Int? {
        let ack = try perform(.match)
        switch ack.code {
        case .success: return Int(ack.payload[0]) << 8 | Int(ack.payload[1])
        case .noMatch: return nil
        default: throw moduleError(.match, ack.code)
        }
    }

    /// Search: look feature buffer `buffer` up in `range` of the library (default: the occupied
    /// range when the index is known, else the whole capacity). Page and score are only read
    /// when the code is `00` (protocol.md §1.4 d).
    public func search(buffer: UInt8 = CharBuffer.one, range: Range<Int>? = nil) throws(ModuleError) -> SearchResult {
        let range = if let range { range } else { try defaultSearchRange() }
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= 0xFFFF else {
            throw .invalidArgument("A Search covers one or more slots within 0 to 65535; it was asked for \(SlotText.of(range)).")
        }
        let ack = try perform(.search(buffer: buffer, start: range.lowerBound, count: range.count))
        if ack.code == .success {
            let hit: SearchHit
            do { hit = try SearchHit(payload: ack.payload) } catch {
                throw .unexpectedPacket(.search, error.description)
            }
            // A hit outside the range asked for is no answer to this Search (a 1:1 verify would
            // otherwise become a match of whoever holds that slot).
            guard range.contains(hit.slot) else {
                throw .unexpectedPacket(.search, "a hit at slot \(hit.slot), outside the range searched \(range)")
            }
            return .found(hit)
        }
        if ack.code == .notFound || (ack.code.rawValue == 0x24 && family == .r50x) { return .notFound }
        throw moduleError(.search, ack.code)
    }

    func defaultSearchRange() throws(ModuleError) -> Range<Int> {
        if let occupied = indexTable?.occupiedRange { return occupied }
        guard let capacity, capacity > 0 else {
            throw .invalidArgument("The library capacity is unknown (ReadSysPara failed); pass a search range.")
        }
        return 0..<capacity
    }

    /// RegModel: merge feature buffers 1 and 2 into a template.
    public func registerModel() throws(ModuleError) -> ModelResult {
        let ack = try perform(.regModel)
        switch ack.code {
        case .success: return .merged
        case .enrollMismatch: return .fingersDiffer
        default: throw moduleError(.regModel, ack.code)
        }
    }

    /// Store: write feature buffer `buffer` into library `slot`.
    public func store(buffer: UInt8 = CharBuffer.one, slot: Int) throws(ModuleError) {
        try checkSlot(slot)
        try performExpectingSuccess(.store(buffer: buffer, slot: slot))
        indexTable?.insert(slot)
    }

    /// LoadChar: read library `slot` into feature buffer `buffer`. Throws `0C` for an empty slot.
    public func loadTemplate(buffer: UInt8 = CharBuffer.one, slot: Int) throws(ModuleError) {
        try checkSlot(slot)
        try performExpectingSuccess(.loadChar(buffer: buffer, slot: slot))
    }

    /// DeletChar: remove `count` templates starting at `start`.
    public func deleteTemplates(start: Int, count: Int = 1) throws(ModuleError) {
        try checkSlot(start)
        guard count > 0 else { throw .invalidArgument("Delete count must be at least 1.") }
        try performExpectingSuccess(.deleteChar(start: start, count: count))
        for slot in start..<(start + count) { indexTable?.remove(slot) }
    }

    /// Empty: delete every template.
    public func emptyLibrary() throws(ModuleError) {
        try performExpectingSuccess(.empty)
        if let capacity = indexTable?.capacity { indexTable = IndexTable(capacity: capacity) }
    }

    /// ReadSysPara, cached in `systemParameters`.
    @discardableResult
    public func readSystemParameters() throws(ModuleError) -> SystemParameters {
        try refreshSystemParameters()
        return systemParameters!
    }

    func refreshSystemParameters() throws(ModuleError) {
        let ack = try performExpectingSuccess(.readSysPara, ExchangeOptions(checkFamily: false))
        do { systemParameters = try SystemParameters(bytes: ack.payload) } catch {
            throw .unexpectedPacket(.readSysPara, error.description)
        }
    }

    /// SetSysPara with a raw value, then ReadSysPara again (the cache must reflect the module).
    /// Prefer `setBaudRate`, `setPacketSize`, `setSecurityLevel`, which also re-probe.
    public func setSystemParameter(_ parameter: SystemParameter, value: UInt8) throws(ModuleError) {
        try performExpectingSuccess(.setSysPara(parameter, value: value))
        try refreshSystemParameters()
    }

    /// SetPwd: change the module password; the driver uses the new one from now on.
    public func setPassword(_ newPassword: UInt32) throws(ModuleError) {
        try performExpectingSuccess(.setPassword(newPassword))
        password = newPassword
    }

    /// VfyPwd: true when `candidate` is the module's password (`00`), false on `13`.
    public func verifyPassword(_ candidate: UInt32) throws(ModuleError) -> Bool {
        let ack = try perform(.verifyPassword(candidate))
        switch ack.code {
        case .success: return true
        case .wrongPassword: return false
        default: throw moduleError(.verifyPassword, ack.code)
        }
    }

    /// GetRandomCode: a 32-bit random number from the module.
    public func randomNumber() throws(ModuleError) -> UInt32 {
        let ack = try performExpectingSuccess(.getRandomCode)
        return ack.payload.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    }

    /// SetAdder: give the module a new address. Its ack already comes from the new address, and
    /// the driver switches to it right after.
    public func setAddress(_ newAddress: UInt32) throws(ModuleError) {
        try performExpectingSuccess(.setAddress(newAddress), ExchangeOptions(alternateAddress: newAddress))
        address = newAddress
        systemParameters?.address = newAddress
    }

    /// TempleteNum: how many templates the library holds.
    public func templateCount() throws(ModuleError) -> Int {
        let ack = try performExpectingSuccess(.templateCount)
        return Int(ack.payload[0]) << 8 | Int(ack.payload[1])
    }

    /// ReadIndexTable over every page up to the capacity; cached in `indexTable`.
    public func readIndexTable() throws(ModuleError) -> IndexTable {
        guard let capacity, capacity > 0 else {
            throw .invalidArgument("The library capacity is unknown (ReadSysPara failed); cannot read the index.")
        }
        var table = IndexTable(capacity: capacity)
        for page in 0..<IndexTable.pageCount(capacity: capacity) {
            let ack = try performExpectingSuccess(.readIndexTable(page: page))
            table.merge(page: page, bitmap: ack.payload)
        }
        indexTable = table
        return table
    }

    func checkSlot(_ slot: Int) throws(ModuleError) {
        guard slot >= 0, slot <= 0xFFFF else { throw .invalidArgument("Slot \(slot) is negative or above 65535.") }
        if let capacity, slot >= capacity {
            throw .invalidArgument("Slot \(slot) is outside the library (capacity \(capacity): slots 0 to \(capacity - 1)).")
        }
    }
}
