import FingerprintProtocol
import ModuleSimulator
import Testing

/// protocol.md §1.4 as bytes on a real pseudo-terminal.
@Suite struct WorkedFramesTests {
    func bytes(_ hex: String) -> [UInt8] {
        hex.split(separator: " ").map { UInt8($0, radix: 16)! }
    }

    @Test func verifyPasswordExample() throws {
        let host = try Harness()
        try host.send(bytes("EF 01 FF FF FF FF 01 00 07 13 00 00 00 00 00 1B"))
        #expect(try host.readRaw() == bytes("EF 01 FF FF FF FF 07 00 03 00 00 0A"))
    }

    @Test func genImgWithoutFinger() throws {
        let host = try Harness()
        try host.send(bytes("EF 01 FF FF FF FF 01 00 03 01 00 05"))
        #expect(try host.readRaw() == bytes("EF 01 FF FF FF FF 07 00 03 02 00 0C"))
    }

    @Test func searchExampleOnEmptyLibraryAndAfterEnroll() throws {
        let host = try Harness()
        host.server.place("alice")
        #expect(try host.capture(into: 1) == 0)
        try host.send(bytes("EF 01 FF FF FF FF 01 00 08 04 01 00 00 03 E8 00 F9"))
        #expect(try host.readRaw() == bytes("EF 01 FF FF FF FF 07 00 07 09 00 00 00 00 00 17"))
        host.server.lift()
        try host.enroll("alice", slot: 5)
        host.server.place("alice")
        #expect(try host.capture(into: 1) == 0)
        let reply = try host.ack(.search(buffer: 1, start: 0, count: 1000))
        #expect(reply.code == .success)
        let hit = try SearchHit(payload: reply.payload)
        #expect(hit.slot == 5)
        #expect((50...300).contains(hit.score))
    }

    @Test func readSysParaLayout() throws {
        let host = try Harness(.init(profile: .r503))
        #expect(try host.code(.verifyPassword(0)) == 0)
        try host.send(bytes("EF 01 FF FF FF FF 01 00 03 0F 00 13"))
        // The real R503 reply of protocol.md §1.4 (e): status 0004, capacity 200, level 3, pkt 128, N = 6.
        #expect(try host.readRaw() == bytes("EF 01 FF FF FF FF 07 00 13 00 00 04 00 00 00 C8 00 03 FF FF FF FF 00 02 00 06 04 ED"))
    }

    @Test func r307ParametersAndCount() throws {
        let host = try Harness()
        let reply = try host.ack(.readSysPara)
        let parameters = try SystemParameters(bytes: reply.payload)
        #expect(parameters.capacity == 1000)
        #expect(parameters.packetSize == 128)
        #expect(parameters.baudRate == 57600)
        #expect(try host.ack(.templateCount).payload == [0, 0])
    }
}
