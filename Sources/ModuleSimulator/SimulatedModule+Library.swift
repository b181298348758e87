import FingerprintProtocol

/// Store, load, delete, clear, count and the index table.
extension SimulatedModule {
    /// The bytes Store and UpChar take from a BufferID.
    func bufferContents(_ id: UInt8) -> [UInt8]? {
        if profile.familyProfile.genImgWipesFeatures, let model = modelBuffer { return model }
        return charBuffers[bufferIndex(id)]
    }

    /// Store (06): buffer → library slot, padded to the template size.
    mutating func store(_ command: Command) -> ReplyPlan {
        guard command.parameters.count >= 3 else { return ack(.packetError, for: command) }
        let slot = command.parameters.bigEndianValue(at: 1, size: 2)
        guard slot < profile.capacity else { return ack(.badLocation, for: command) }
        guard let contents = bufferContents(command.parameters[0]) else { return ack(.packetError, for: command) }
        flash.library[slot] = contents.count == profile.templateSize
            ? contents
            : CharFile.template(from: [contents], templateSize: profile.templateSize)
        flashChanged()
        return ack(.success, for: command)
    }

    /// LoadChar (07): library slot → buffer (and the R50x model buffer).
    mutating func loadChar(_ command: Command) -> ReplyPlan {
        guard command.parameters.count >= 3 else { return ack(.packetError, for: command) }
        let slot = command.parameters.bigEndianValue(at: 1, size: 2)
        guard slot < profile.capacity else { return ack(.badLocation, for: command) }
        guard let template = flash.library[slot] else { return ack(.databaseReadFail, for: command) }
        charBuffers[bufferIndex(command.parameters[0])] = template
        if profile.familyProfile.genImgWipesFeatures { modelBuffer = template }
        return ack(.success, for: command)
    }

    /// DeletChar (0C): `count` slots from `start`.
    mutating func deleteTemplates(_ command: Command) -> ReplyPlan {
        guard command.parameters.count >= 4 else { return ack(.packetError, for: command) }
        let start = command.parameters.bigEndianValue(at: 0, size: 2)
        let count = command.parameters.bigEndianValue(at: 2, size: 2)
        guard count > 0, start + count <= profile.capacity else { return ack(.deleteFail, for: command) }
        for slot in start..<start + count { flash.library[slot] = nil }
        flashChanged()
        return ack(.success, for: command)
    }

    /// Empty (0D): the whole library.
    mutating func emptyLibrary(_ command: Command) -> ReplyPlan {
        flash.library.removeAll()
        flashChanged()
        return ack(.success, for: command)
    }

    /// ReadIndexTable (1F): 32-byte bitmap of one 256-slot page, bit 0 = lowest slot.
    func readIndexTable(_ command: Command) -> ReplyPlan {
        guard command.parameters.count >= 1 else { return ack(.packetError, for: command) }
        let table = IndexTable(capacity: profile.capacity, occupied: Set(flash.library.keys))
        return ack(.success, payload: table.bitmap(page: Int(command.parameters[0])), for: command)
    }
}
