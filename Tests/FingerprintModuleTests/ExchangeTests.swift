import FingerprintModule
import FingerprintProtocol
import SerialPort
import Testing
import TestSupport

/// The receive path of protocol.md §9.1 against a scripted far end.
@Suite struct ExchangeTests {
    @Test func skipsGarbageBeforeTheReply() throws {
        let script = try ScriptedModule { command, _, _ in
            if command.instruction == .templateCount {
                return [0x55, 0x00, 0xEF, 0x12, 0x34, 0xEF] + ack(0x00, [0x00, 0x05])
            }
            return r503Opening(command) ?? ack(0x01)
        }
        let module = try connectedR503(script)
        #expect(try module.templateCount() == 5)
    }

    @Test func dropsAStaleAckOfAnotherShape() throws {
        // A late plain ack (e.g. after an aura animation) arrives first; TempleteNum's has 2 bytes.
        let script = try ScriptedModule { command, _, _ in
            if command.instruction == .templateCount { return ack(0x00) + ack(0x00, [0x00, 0x09]) }
            return r503Opening(command) ?? ack(0x01)
        }
        let module = try connectedR503(script)
        #expect(try module.templateCount() == 9)
    }

    @Test func onlyAStaleAckIsAnUnexpectedPacketNotAnAnswer() throws {
        let script = try ScriptedModule { command, _, _ in
            command.instruction == .templateCount ? ack(0x00) : (r503Opening(command) ?? ack(0x01))
        }
        let module = try connectedR503(script)
        let error = expectThrows(ModuleError.self) { try module.templateCount() }
        guard case .unexpectedPacket(.templateCount, _) = error else {
            Issue.record("expected .unexpectedPacket, got \(String(describing: error))")
            return
        }
    }

    @Test func retriesACorruptedReplyOnceForAnIdempotentInstruction() throws {
        let script = try ScriptedModule { command, occurrence, _ in
            if command.instruction == .templateCount {
                return occurrence == 0 ? corrupted(ack(0x00, [0x00, 0x03])) : ack(0x00, [0x00, 0x03])
            }
            return r503Opening(command) ?? ack(0x01)
        }
        let module = try connectedR503(script)
        #expect(try module.templateCount() == 3)
        #expect(script.instructions.filter { $0 == 0x1D }.count == 2)
    }

    @Test func neverResendsStoreAfterACorruptedReply() throws {
        let script = try ScriptedModule { command, _, _ in
            command.instruction == .store ? corrupted(ack(0x00)) : (r503Opening(command) ?? ack(0x01))
        }
        let module = try connectedR503(script)
        let error = expectThrows(ModuleError.self) { try module.store(slot: 3) }
        guard case let .corruptedReply(.store, statistics) = error else {
            Issue.record("expected .corruptedReply, got \(String(describing: error))")
            return
        }
        #expect(statistics.checksumErrors == 1)
        #expect(script.instructions.filter { $0 == 0x06 }.count == 1)
    }

    @Test func neverResendsStoreAfterATimeout() throws {
        let script = try ScriptedModule { command, _, _ in
            command.instruction == .store ? [] : (r503Opening(command) ?? ack(0x01))
        }
        let module = try connectedR503(script)
        #expect(throws: ModuleError.self) { try module.store(slot: 3) }
        #expect(script.instructions.filter { $0 == 0x06 }.count == 1)
    }

    @Test func anEchoedCommandMeansUnsupported() throws {
        let script = try ScriptedModule { command, _, _ in
            command.instruction == .readNotepad ? echo(command) : (r503Opening(command) ?? ack(0x01))
        }
        let module = try connectedR503(script)
        let error = expectThrows(ModuleError.self) { try module.readNotepad(page: 0) }
        guard case .unsupported(.readNotepad, .r50x) = error else {
            Issue.record("expected .unsupported, got \(String(describing: error))")
            return
        }
    }

    @Test func anUnknownConfirmationCodePassesThroughRaw() throws {
        let script = try ScriptedModule { command, _, _ in
            command.instruction == .store ? ack(0x80) : (r503Opening(command) ?? ack(0x01))
        }
        let module = try connectedR503(script)
        let error = expectThrows(ModuleError.self) { try module.store(slot: 1) }
        guard case let .module(.store, code, meaning) = error else {
            Issue.record("expected .module, got \(String(describing: error))")
            return
        }
        #expect(code.rawValue == 0x80)
        #expect(meaning == nil)
        #expect(error?.description.contains("0x80") == true)
    }

    @Test func aTimeoutIsNotAModuleAnswer() throws {
        let script = try ScriptedModule { command, _, _ in
            switch command.instruction {
            case .loadChar: command.parameters == [0x01, 0x00, 0x05] ? [] : ack(0x0C)
            default: r503Opening(command) ?? ack(0x01)
            }
        }
        let module = try connectedR503(script)
        let silent = expectThrows(ModuleError.self) { try module.loadTemplate(slot: 5) }
        guard case .timeout(.loadChar, _) = silent else {
            Issue.record("expected .timeout, got \(String(describing: silent))")
            return
        }
        #expect(silent?.isTransportFailure == true)
        #expect(silent?.confirmationCode == nil)
        // LoadChar is idempotent: the silent one was tried twice.
        #expect(script.instructions.filter { $0 == 0x07 }.count == 2)

        let answered = expectThrows(ModuleError.self) { try module.loadTemplate(slot: 6) }
        #expect(answered?.confirmationCode?.rawValue == 0x0C)
        #expect(answered?.isTransportFailure == false)
    }

    @Test func aReplyFromAnotherAddressIsReportedAsSuch() throws {
        let script = try ScriptedModule { command, _, _ in
            command.instruction == .templateCount
                ? ack(0x00, [0, 1], address: 0x1234_5678) : (r503Opening(command) ?? ack(0x01))
        }
        let module = try connectedR503(script)
        let error = expectThrows(ModuleError.self) { try module.templateCount() }
        guard case let .wrongAddress(_, expected, seen) = error else {
            Issue.record("expected .wrongAddress, got \(String(describing: error))")
            return
        }
        #expect(expected == 0xFFFF_FFFF)
        #expect(seen == 0x1234_5678)
        #expect(error?.description.contains("--address") == true)
    }

    @Test func setAddressFollowsTheAckFromTheNewAddress() throws {
        let newAddress: UInt32 = 0x0A0B_0C0D
        let script = try ScriptedModule { command, _, _ in
            switch command.instruction {
            case .setAddress: ack(0x00, address: newAddress)
            case .templateCount: ack(0x00, [0, 2], address: newAddress)
            default: r503Opening(command) ?? ack(0x01)
            }
        }
        let module = try connectedR503(script)
        try module.setAddress(newAddress)
        #expect(module.address == newAddress)
        #expect(try module.templateCount() == 2)
    }

    @Test func refusesAnInstructionTheFamilyLacksBeforeSending() throws {
        let script = try ScriptedModule { command, _, _ in
            command.instruction == .readSysPara ? ack(0x00, systemParameters(capacity: 1000)) : []
        }
        let module = FingerprintModule(transport: script.host, family: .r30x)
        module.timeouts = fastTimeouts()
        try module.connect()
        let sentBefore = script.calls.count
        let error = expectThrows(ModuleError.self) { try module.setAuraLED(.breathing, color: .blue) }
        guard case .unsupported(_, .r30x) = error else {
            Issue.record("expected .unsupported, got \(String(describing: error))")
            return
        }
        #expect(throws: ModuleError.self) { try module.softReset() }
        #expect(script.calls.count == sentBefore)
    }

    @Test func everyExchangeIsRecordedWithOrderedTimestamps() throws {
        let script = try ScriptedModule { command, _, _ in
            command.instruction == .templateCount ? ack(0x00, [0, 4]) : (r503Opening(command) ?? ack(0x01))
        }
        let module = try connectedR503(script)
        let log = ExchangeLog()
        module.exchangeObserver = log.record
        _ = try module.templateCount()
        let record = try #require(log.records.first)
        #expect(log.records.count == 1)
        #expect(record.instruction == .templateCount)
        #expect(record.bytesSent == 12)
        #expect(record.bytesReceived == 14)
        #expect(record.code == .success)
        let firstByte = try #require(record.firstByteAt)
        #expect(record.sentAt <= firstByte && firstByte <= record.doneAt)
    }
}
