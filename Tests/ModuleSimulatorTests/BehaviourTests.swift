import Foundation
import FingerprintProtocol
import ModuleSimulator
import Posix
import SerialPort
import Testing

/// What drivers trip over: password, address, baud, boot byte, faults, persistence, control.
@Suite struct BehaviourTests {
    @Test func passwordIsEnforcedAgainAfterPowerCycle() throws {
        let host = try Harness(.init(password: 0xCAFE_0001))
        #expect(try host.code(.readSysPara) == 0x21)
        #expect(try host.code(.verifyPassword(0)) == 0x13)
        #expect(try host.code(.verifyPassword(0xCAFE_0001)) == 0)
        let parameters = try SystemParameters(bytes: host.ack(.readSysPara).payload)
        #expect(parameters.status.contains(.passwordVerified))
        host.server.powerCycle()
        #expect(try host.readUntilBoot() == [0x55])
        #expect(try host.code(.templateCount) == 0x21)
    }

    @Test func otherAddressesGetSilenceAndSetAdderAnswersFromTheNewOne() throws {
        let host = try Harness(.init(address: 0x1234_5678))
        try host.send(.readSysPara)  // factory address: ignored
        try host.expectSilence()
        #expect(try host.ack(.templateCount, address: 0x1234_5678).isSuccess)
        try host.send(.setAddress(0x0BAD_F00D), address: 0x1234_5678)
        let reply = try #require(try host.nextFrame())
        #expect(reply.address == 0x0BAD_F00D)
        #expect(try Acknowledgement(frame: reply).isSuccess)
        try host.send(.templateCount, address: 0x1234_5678)
        try host.expectSilence()
    }

    @Test func baudChangeAppliesAfterPowerCycle() throws {
        let host = try Harness()
        #expect(try host.code(.setSysPara(.baudRate, value: 12)) == 0)
        #expect(try host.code(.templateCount) == 0)  // still 57600 until re-powered
        host.server.powerCycle()
        #expect(try host.readUntilBoot() == [0x55])
        try host.send(.templateCount)
        try host.expectSilence()
        try host.port.setBaudRate(115_200)
        #expect(try host.code(.templateCount) == 0)
        #expect(host.server.status().baudRate == 115_200)
    }

    @Test func bootByteWithGlitch() throws {
        let host = try Harness(.init(bootGlitch: true))
        #expect(host.bootBytes == [0x00, 0x55])
        host.server.powerCycle()
        #expect(try host.readUntilBoot() == [0x00, 0x55])
    }

    /// A client that opens the port once `start()` has returned (as a script does when the link
    /// appears) meets a module powered long before: its first reply is exactly the 12-byte ack,
    /// with no boot byte in front. Adafruit's library reads exactly 12 bytes and refuses
    /// `55 EF 01 …` as "Incorrect packet data" (it did, under qemu-user, when the serving thread
    /// wrote the boot byte only after the client had opened).
    @Test func aClientOpeningAfterStartGetsNoBootByteInFrontOfItsFirstReply() throws {
        for _ in 0..<20 {
            let server = try ModuleSimulatorServer(.init())
            server.start()
            let port = try SerialPort.open(path: server.devicePath, baudRate: 57600, exclusive: false)
            defer { port.close(); server.stop() }
            try port.send(Command.verifyPassword(0).frame().encoded())
            let expected = Acknowledgement(code: .success).frame().encoded()
            var bytes: [UInt8] = []
            let deadline = ContinuousClock.now + .seconds(2)
            while bytes.count < expected.count, ContinuousClock.now < deadline {
                bytes += try port.receive(maxCount: expected.count - bytes.count, deadline: deadline)
            }
            #expect(bytes == expected)
        }
    }

    @Test func faults() throws {
        let host = try Harness()
        host.server.fault(.corrupt)
        try host.send(.templateCount)
        let corrupted = try host.readRaw()
        #expect(corrupted.count == 14)
        var decoder = FrameDecoder()
        decoder.feed(corrupted)
        #expect(decoder.nextFrame() == nil)
        #expect(decoder.statistics.checksumErrors == 1)

        host.server.fault(.garbage)
        try host.send(.templateCount)
        let noisy = try host.readRaw()
        #expect(noisy.count > 14)
        decoder = FrameDecoder()
        decoder.feed(noisy)
        #expect(decoder.nextFrame() != nil)

        host.server.fault(.drop)
        try host.send(.setSysPara(.securityLevel, value: 4))
        try host.expectSilence()
        #expect(try SystemParameters(bytes: host.ack(.readSysPara).payload).securityLevel == 4)  // it still acted

        host.server.fault(.silence)
        try host.send(.templateCount)
        try host.expectSilence()
        host.server.fault(.none)
        #expect(try host.code(.templateCount) == 0)

        host.server.fault(.delay(milliseconds: 400))
        try host.send(.templateCount)
        try host.expectSilence(0.2)
        #expect(try host.nextFrame(within: 2) != nil)
    }

    @Test func controlSocketLines() throws {
        let directory = Harness.temporaryDirectory()
        let host = try Harness(.init(controlPath: directory + "/control"))
        let client = try UnixConnection.connect(path: directory + "/control")
        func say(_ line: String) throws -> String {
            try client.send(line: line)
            return try #require(try client.readLine(deadline: .now + .seconds(5)))
        }
        #expect(try say("place alice").hasPrefix("ok"))
        #expect(try host.code(.genImg) == 0)
        #expect(try say("lift").hasPrefix("ok"))
        #expect(try host.code(.genImg) == 2)
        #expect(try say("bogus").hasPrefix("error: "))
        #expect(try say("fault delay x").hasPrefix("error: "))
        #expect(try say("touch bob 2").hasPrefix("ok"))
        let status = try JSONDecoder().decode(SimulatorStatus.self, from: Data(try say("status").utf8))
        #expect(status.profile == "r307")
        #expect(status.sensor.contains("bob"))
        #expect(status.devicePath == host.server.devicePath)
        #expect(try say("power-cycle").hasPrefix("ok"))
        #expect(try host.readUntilBoot() == [0x55])
    }

    @Test func flashPersistsAcrossInstances() throws {
        let directory = Harness.temporaryDirectory()
        let state = directory + "/module.json"
        do {
            let first = try Harness(.init(statePath: state))
            try first.enroll("judy", slot: 12)
            #expect(try first.code(.setPassword(0x0000_0042)) == 0)
            #expect(try first.code(.writeNotepad(page: 1, data: [1, 2, 3])) == 0)
            #expect(try first.code(.templateCount) == 0)  // a round trip: the state is saved by now
        }
        let second = try Harness(.init(statePath: state))
        #expect(try second.code(.templateCount) == 0x21)
        #expect(try second.code(.verifyPassword(0x42)) == 0)
        #expect(second.server.library.keys.sorted() == [12])
        #expect(try second.ack(.readNotepad(page: 1)).payload.prefix(3) == [1, 2, 3])
        second.server.place("judy")
        #expect(try second.capture(into: 1) == 0)
        #expect(try second.code(.search(buffer: 1, start: 0, count: 1000)) == 0)
    }

    @Test func r503Specifics() throws {
        let host = try Harness(.init(profile: .r503))
        let info = try ProductInfo(bytes: host.ack(.readProductInfo).payload)
        #expect(info.templateSize == 1536 && info.imageWidth == 192 && info.capacity == 200)
        #expect(try host.code(.handshake) == 0)
        #expect(try host.code(.auraLed(.breathing, speed: 100, color: .blue, count: 0)) == 0)
        try host.enroll("kim", slot: 0)
        #expect(host.server.library[0]?.count == 1536)
        // GenImg between Img2Tz and Search wipes the features (brianrho/FPM#25).
        host.server.place("kim")
        #expect(try host.capture(into: 1) == 0)
        #expect(try host.code(.genImg) == 0)
        #expect(try host.code(.search(buffer: 1, start: 0, count: 200)) == 0x09)
        #expect(try host.capture(into: 1) == 0)
        #expect(try host.code(.search(buffer: 1, start: 0, count: 200)) == 0)
        host.server.place("kim", quality: .poor)
        #expect(try host.code(.getImageEx) == 0x07)
        let image = try host.upload(.upImage)
        #expect(image.payload.count == 192 * 192 / 2)
        try host.send(.softReset)
        #expect(try host.readRaw() == Acknowledgement(code: .success).frame().encoded() + [0x55])
    }
}
