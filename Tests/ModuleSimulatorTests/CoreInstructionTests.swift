import FingerprintProtocol
import ModuleSimulator
import Testing

/// Every core instruction over the pseudo-terminal, with the confirmation codes of protocol.md §2.1.
@Suite struct CoreInstructionTests {
    @Test func enrollSearchMatchDeleteEmpty() throws {
        let host = try Harness()
        try host.enroll("alice-right-index", slot: 3)
        try host.enroll("bob-left-thumb", slot: 700)
        #expect(try host.ack(.templateCount).payload == [0, 2])
        let page0 = try host.ack(.readIndexTable(page: 0)).payload
        #expect(page0.count == 32 && page0[0] == 0b0000_1000)
        let page2 = try host.ack(.readIndexTable(page: 2)).payload
        #expect(page2[(700 - 512) / 8] == 1 << ((700 - 512) % 8))

        host.server.place("bob-left-thumb")
        #expect(try host.capture(into: 1) == 0)
        let found = try host.ack(.search(buffer: 1, start: 0, count: 1000))
        #expect(found.code == .success)
        #expect(try SearchHit(payload: found.payload).slot == 700)
        // A range without bob finds nothing.
        #expect(try host.code(.search(buffer: 1, start: 0, count: 500)) == 0x09)

        // Match: bob against bob, then bob against alice's template.
        #expect(try host.capture(into: 2) == 0)
        let same = try host.ack(.match)
        #expect(same.code == .success)
        #expect((50...300).contains(Int(same.payload[0]) << 8 | Int(same.payload[1])))
        #expect(try host.code(.loadChar(buffer: 2, slot: 3)) == 0)
        #expect(try host.code(.match) == 0x08)

        host.server.lift()
        #expect(try host.code(.deleteChar(start: 3, count: 1)) == 0)
        #expect(try host.ack(.templateCount).payload == [0, 1])
        #expect(try host.code(.loadChar(buffer: 1, slot: 3)) == 0x0C)
        #expect(try host.code(.loadChar(buffer: 1, slot: 1000)) == 0x0B)
        #expect(try host.code(.store(buffer: 1, slot: 1000)) == 0x0B)
        #expect(try host.code(.deleteChar(start: 999, count: 2)) == 0x10)
        #expect(try host.code(.empty) == 0)
        #expect(try host.ack(.templateCount).payload == [0, 0])
    }

    @Test func differentFingersDoNotMerge() throws {
        let host = try Harness()
        host.server.touch("carol", times: 1)
        #expect(try host.capture(into: 1) == 0)
        host.server.touch("dave", times: 1)
        #expect(try host.capture(into: 2) == 0)
        #expect(try host.code(.regModel) == 0x0A)
    }

    @Test func poorPartialAndMissingCaptures() throws {
        let host = try Harness()
        #expect(try host.code(.img2Tz(buffer: 1)) == 0x15)  // no image yet
        host.server.place("erin", quality: .poor)
        #expect(try host.code(.genImg) == 0)
        #expect(try host.code(.img2Tz(buffer: 1)) == 0x07)
        host.server.place("erin", quality: .partial)
        #expect(try host.capture(into: 1) == 0)
    }

    @Test func passwordRandomNotepadAndParameters() throws {
        let host = try Harness()
        #expect(try host.ack(.getRandomCode).payload.count == 4)
        let page = (0..<32).map { UInt8($0 * 3) }
        #expect(try host.code(.writeNotepad(page: 7, data: page)) == 0)
        #expect(try host.ack(.readNotepad(page: 7)).payload == page)
        #expect(try host.code(.setSysPara(.securityLevel, value: 5)) == 0)
        #expect(try host.code(.setSysPara(.securityLevel, value: 9)) == 0x1A)
        #expect(try host.code(Command(.setSysPara, [7, 1])) == 0x1A)
        #expect(try SystemParameters(bytes: host.ack(.readSysPara).payload).securityLevel == 5)
        #expect(try host.code(.setPassword(0x1234_5678)) == 0)
    }

    @Test func unsupportedInstructionsPerFamily() throws {
        let r307 = try Harness()
        #expect(try r307.code(.getEcho) == 0x01)
        let r503 = try Harness(.init(profile: .r503))
        #expect(try r503.code(.highSpeedSearch(buffer: 1, start: 0, count: 200)) == 0xFC)
        #expect(try r503.code(.ledOn) == 0xFC)
        let as608 = try Harness(.init(profile: .as608))
        #expect(try as608.code(.getEcho) == 0x55)
        #expect(try as608.code(.ledOn) == 0)
    }
}
