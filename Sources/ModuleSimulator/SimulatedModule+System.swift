import FingerprintProtocol

/// Parameters, password, address, random numbers, notepad and the R50x extras.
extension SimulatedModule {
    /// SetSysPara (0E). Answers before applying (protocol.md §4.3): packet size and security
    /// level apply at once, a baud change only after the next power-up.
    mutating func setSystemParameter(_ command: Command) -> ReplyPlan {
        guard command.parameters.count >= 2 else { return ack(.packetError, for: command) }
        let value = Int(command.parameters[1])
        let badValue: ConfirmationCode = profile.family == .r50x ? .badRegisterValue : .invalidRegister
        switch SystemParameter(rawValue: command.parameters[0]) {
        case .baudRate:
            guard profile.familyProfile.baudMultipliers.contains(value) else { return ack(badValue, for: command) }
            flash.baudMultiplier = value
        case .securityLevel:
            guard (1...5).contains(value) else { return ack(badValue, for: command) }
            flash.securityLevel = value
        case .packetSize:
            guard (0...3).contains(value) else { return ack(badValue, for: command) }
            flash.packetSizeCode = value
        case nil:
            return ack(.invalidRegister, for: command)
        }
        flashChanged()
        return ack(.success, for: command)
    }

    /// The ReadSysPara block as the module reports it now.
    public var systemParameters: SystemParameters {
        var status: SystemParameters.Status = []
        if passwordVerified { status.insert(.passwordVerified) }
        if lastMatchSucceeded { status.insert(.lastMatchSucceeded) }
        if image != nil { status.insert(.imageBufferValid) }
        return SystemParameters(status: status, systemIdentifier: profile.family == .r30x ? 0x0009 : 0,
                                capacity: profile.capacity, securityLevel: flash.securityLevel,
                                address: flash.address, packetSizeCode: flash.packetSizeCode,
                                baudMultiplier: flash.baudMultiplier)
    }

    func readSystemParameters(_ command: Command) -> ReplyPlan {
        ack(.success, payload: systemParameters.encoded(), for: command)
    }

    mutating func setPassword(_ command: Command) -> ReplyPlan {
        guard command.parameters.count >= 4 else { return ack(.packetError, for: command) }
        flash.password = UInt32(command.parameters.bigEndianValue(at: 0, size: 4))
        // The session that set the password stays open; the next power-up needs VfyPwd.
        passwordVerified = true
        flashChanged()
        return ack(.success, for: command)
    }

    mutating func verifyPassword(_ command: Command) -> ReplyPlan {
        guard command.parameters.count >= 4 else { return ack(.packetError, for: command) }
        guard UInt32(command.parameters.bigEndianValue(at: 0, size: 4)) == flash.password else {
            return ack(.wrongPassword, for: command)
        }
        passwordVerified = true
        return ack(.success, for: command)
    }

    mutating func randomCode(_ command: Command) -> ReplyPlan {
        ack(.success, payload: UInt32(truncatingIfNeeded: random.next()).bigEndianByteArray, for: command)
    }

    /// SetAdder (15): the ack already comes from the new address (ZFM20, AS608M).
    mutating func setAddress(_ command: Command) -> ReplyPlan {
        guard command.parameters.count >= 4 else { return ack(.packetError, for: command) }
        flash.address = UInt32(command.parameters.bigEndianValue(at: 0, size: 4))
        flashChanged()
        return ack(.success, for: command)
    }

    var notepadPageError: ConfirmationCode {
        profile.family == .r30x || profile.family == .as608 ? .packetError : ConfirmationCode(rawValue: 0x1C)
    }

    mutating func writeNotepad(_ command: Command) -> ReplyPlan {
        guard command.parameters.count >= 33 else { return ack(.packetError, for: command) }
        let page = Int(command.parameters[0])
        guard page < 16 else { return ack(notepadPageError, for: command) }
        flash.notepad[page] = Array(command.parameters[1..<33])
        flashChanged()
        return ack(.success, for: command)
    }

    func readNotepad(_ command: Command) -> ReplyPlan {
        guard command.parameters.count >= 1 else { return ack(.packetError, for: command) }
        let page = Int(command.parameters[0])
        guard page < 16 else { return ack(notepadPageError, for: command) }
        return ack(.success, payload: flash.notepad[page], for: command)
    }

    /// AuraLedConfig (35): control, speed, colour, count.
    mutating func configureAura(_ command: Command) -> ReplyPlan {
        guard command.parameters.count >= 4, (1...6).contains(command.parameters[0]),
              (1...7).contains(command.parameters[2]) else { return ack(.packetError, for: command) }
        aura = Array(command.parameters.prefix(4))
        return ack(.success, for: command)
    }

    /// SoftRst (3D): ack, reset (volatile state gone), then the boot byte `55`.
    mutating func softReset(_ command: Command) -> ReplyPlan {
        var plan = ack(.success, for: command)
        resetVolatileState()
        plan.segments.append(.init(delay: timing.bootDuration(), frames: [], trailingBytes: [0x55]))
        return plan
    }
}
