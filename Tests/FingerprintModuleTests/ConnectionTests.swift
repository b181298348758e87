import Foundation
import FingerprintModule
import FingerprintProtocol
import SerialPort
import Testing
import TestSupport

@Suite struct ConnectionTests {
    @Test func connectsToAnR503AfterItsBootByteAndLearnsEverything() throws {
        let script = try ScriptedModule { command, _, _ in r503Opening(command) ?? ack(0x01) }
        script.emit([0x00, 0x55])  // glitch byte, then the boot byte
        let module = FingerprintModule(transport: script.host)
        module.timeouts = fastTimeouts()
        module.timeouts.bootWait = .seconds(5)  // returns at the boot byte, not after 5 s
        try module.connect()
        #expect(module.bootByteSeen)
        #expect(module.family == .r50x)
        #expect(module.capacity == 200)
        #expect(module.packetSize == 128)
        #expect(module.templateSize == 1536)
        #expect(module.productInfo?.model == "R503")
        #expect(module.imageSize == (192, 192))
        // Handshake first (unknown family → ReadSysPara), detection via HandShake 0x40, then parameters.
        #expect(script.instructions == [0x0F, 0x40, 0x0F, 0x3C])
    }

    @Test func detectsAnAS608ByItsEchoReply() throws {
        let script = try ScriptedModule { command, _, _ in
            switch command.instruction {
            case .handshake: echo(command)  // R551-style "unsupported"
            case .getEcho: ack(0x55)
            case .readSysPara: ack(0x00, systemParameters(capacity: 300))
            default: ack(0x01)
            }
        }
        let module = FingerprintModule(transport: script.host)
        module.timeouts = fastTimeouts()
        try module.connect()
        #expect(module.family == .as608)
        #expect(module.capacity == 300)
        #expect(module.templateSize == nil)  // learned at the first upload, never assumed
    }

    @Test func fallsBackToR30xWhenNoExtraHandshakeAnswers() throws {
        let script = try ScriptedModule { command, _, _ in
            command.instruction == .readSysPara ? ack(0x00, systemParameters(capacity: 1000)) : []
        }
        let module = FingerprintModule(transport: script.host)
        module.timeouts = fastTimeouts()
        try module.connect()
        #expect(module.family == .r30x)
        #expect(module.capacity == 1000)
    }

    @Test func handshakeIsRetriedAfterAnEarlyBootPeriod() throws {
        // The first two handshakes fall into the boot period and get no answer.
        let script = try ScriptedModule { command, occurrence, _ in
            if command.instruction == .handshake && occurrence < 2 { return [] }
            return r503Opening(command) ?? ack(0x01)
        }
        let module = try connectedR503(script)
        #expect(module.capacity == 200)
        #expect(script.instructions.prefix(3) == [0x40, 0x40, 0x40])
    }

    @Test func verifiesTheConfiguredPassword() throws {
        let script = try ScriptedModule { command, _, _ in
            if command.instruction == .verifyPassword {
                return ack(command.parameters == [0x12, 0x34, 0x56, 0x78] ? 0x00 : 0x13)
            }
            return r503Opening(command) ?? ack(0x01)
        }
        _ = try connectedR503(script, password: 0x1234_5678)
        #expect(script.instructions.contains(0x13))
    }

    @Test func aWrongPasswordSaysHowToFixIt() throws {
        let script = try ScriptedModule { command, _, _ in
            command.instruction == .verifyPassword ? ack(0x13) : (r503Opening(command) ?? ack(0x01))
        }
        let error = expectThrows(ModuleError.self) { try connectedR503(script, password: 42) }
        #expect(error?.confirmationCode == .wrongPassword)
        #expect(error?.isTransportFailure == false)
        #expect(error?.description.contains("--password") == true)
        #expect(error?.description.contains("FPMOD_PASSWORD") == true)
    }

    @Test func reRunsTheOpeningSequenceWhenThePasswordIsAskedForAgain() throws {
        // After a power cycle the module refuses everything with 0x21 until VfyPwd.
        let script = try ScriptedModule { command, occurrence, _ in
            switch command.instruction {
            case .templateCount: occurrence == 0 ? ack(0x21) : ack(0x00, [0x00, 0x07])
            default: r503Opening(command) ?? ack(0x01)
            }
        }
        let module = try connectedR503(script, password: 7)
        #expect(try module.templateCount() == 7)
        let afterConnect = Array(script.instructions.drop { $0 != 0x1D })
        #expect(afterConnect.first == 0x1D)
        #expect(afterConnect.contains(0x13))  // VfyPwd again
        #expect(afterConnect.last == 0x1D)    // then the refused command once more
    }

    @Test func aBootByteMidSessionReRunsTheOpeningSequence() throws {
        let script = try ScriptedModule { command, _, _ in
            command.instruction == .templateCount ? ack(0x00, [0x00, 0x01]) : (r503Opening(command) ?? ack(0x01))
        }
        let module = try connectedR503(script, password: 9)
        let verifiesBefore = script.instructions.filter { $0 == 0x13 }.count
        script.emit([0x55])  // the module was power-cycled while idle
        try waitUntil { script.host.pendingInputCount > 0 }
        #expect(try module.templateCount() == 1)
        #expect(script.instructions.filter { $0 == 0x13 }.count == verifiesBefore + 1)
    }

    @Test func probesOtherBaudRatesWhenTheModuleIsSilent() throws {
        // The module talks at 115200 only; the host starts at 57600.
        let script = try ScriptedModule { command, _, hostBaud in
            guard hostBaud == 115_200 else { return [0xF0, 0x0F] }  // what a baud mismatch looks like
            return r503Opening(command) ?? ack(0x01)
        }
        let module = FingerprintModule(transport: script.host, family: .r50x)
        module.timeouts = fastTimeouts()
        let rate = try module.reconnect()
        #expect(rate == 115_200)
        #expect(module.answeredBaudRate == 115_200)
        #expect(script.host.baudRate == 115_200)
    }

    @Test func silenceAtEveryRateNamesTheWiring() throws {
        let script = try ScriptedModule { _, _, _ in [] }
        let module = FingerprintModule(transport: script.host, family: .r50x)
        module.timeouts = fastTimeouts()
        module.timeouts.probe = .milliseconds(10)
        let error = expectThrows(ModuleError.self) { try module.reconnect() }
        guard case let .noAnswer(_, rates) = error else {
            Issue.record("expected .noAnswer, got \(String(describing: error))")
            return
        }
        #expect(rates.count == 12)
        #expect(error?.description.contains("TX") == true)
    }
}

/// Polls a condition (used only to wait for another thread, never to assert timing).
func waitUntil(_ condition: () -> Bool) throws {
    let limit = ContinuousClock.now + .seconds(5)
    while !condition() {
        guard ContinuousClock.now < limit else { throw WaitTimedOut() }
        Thread.sleep(forTimeInterval: 0.002)
    }
}

struct WaitTimedOut: Error {}
