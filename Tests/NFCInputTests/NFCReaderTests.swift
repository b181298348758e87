import Foundation
import NFCInput
import PN532Simulator
import Testing
import TestSupport

/// Real libnfc (pn532_uart driver) against the simulated PN532 on a real pseudo-terminal.
@Suite("NFCReader: real libnfc against the simulated PN532", .serialized)
struct NFCReaderTests {
    static let classicUID: [UInt8] = [0x0A, 0x1B, 0x2C, 0x3D]
    static let desfireUID: [UInt8] = [0x04, 0x52, 0x7A, 0x92, 0xC1, 0x5E, 0x80]

    /// A started simulator, stopped when the test ends.
    final class Bench {
        let server: PN532SimulatorServer
        var connstring: String { "pn532_uart:\(server.devicePath):115200" }

        init(card: SimulatedCard? = nil) throws {
            server = try PN532SimulatorServer(card: card)
            server.start()
        }

        deinit { server.stop() }
    }

    @Test("the UID of a MIFARE Classic placed on the reader")
    func readsClassic() throws {
        let bench = try Bench(card: try SimulatedCard(kind: .classic, uid: Self.classicUID))
        let reader = try NFCReader.open(bench.connstring, deadline: .now + .seconds(10))
        let card = try reader.read(until: .now + .seconds(5))
        #expect(card?.uid == Self.classicUID)
        #expect(card?.kind == .classic)
        #expect(card?.atqa == 0x0004)
        #expect(card?.sak == 0x08)
        #expect(card?.uidHex == "0A1B2C3D")
        // What a log line built from the card shows: no UID.
        #expect(card.map { !String(describing: $0).contains("0A1B2C3D") } == true)
    }

    @Test("a DESFire's 7-byte UID, its ATS (the PN532's own RATS) and its kind")
    func readsDESFire() throws {
        let bench = try Bench(card: try SimulatedCard(kind: .desfire, uid: Self.desfireUID))
        let reader = try NFCReader.open(bench.connstring, deadline: .now + .seconds(10))
        let card = try reader.read(until: .now + .seconds(5))
        #expect(card?.uid == Self.desfireUID)
        #expect(card?.kind == .desfire)
        #expect(card?.ats == Array(SimulatedCard.desfireATS.dropFirst()))
    }

    @Test("no card: nil once the deadline has passed")
    func noCard() throws {
        let bench = try Bench()
        let reader = try NFCReader.open(bench.connstring, deadline: .now + .seconds(10))
        let before = bench.server.chip.commandsHandled
        let deadline = ContinuousClock.now + .milliseconds(800)
        #expect(try reader.read(until: deadline) == nil)
        #expect(ContinuousClock.now >= deadline)
        // The reader polled again and again (selects went out) rather than asking once.
        #expect(bench.server.chip.commandsHandled - before >= 2)
    }

    @Test("a card placed while polling is read; once removed it is gone")
    func placedThenRemoved() throws {
        let bench = try Bench()
        let reader = try NFCReader.open(bench.connstring, deadline: .now + .seconds(10))
        let card = try SimulatedCard(kind: .ultralight, uid: Self.desfireUID)
        let server = bench.server
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(300)) { server.place(card) }
        let read = try reader.read(until: .now + .seconds(10))
        #expect(read?.uid == Self.desfireUID)
        #expect(read?.kind == .ultralight)
        server.remove()
        #expect(try reader.read(until: .now + .milliseconds(500)) == nil)
    }

    @Test("a card that answers garbage: a clear error, never a UID")
    func garbage() throws {
        let bench = try Bench(card: try SimulatedCard(kind: .classic, uid: Self.classicUID))
        let reader = try NFCReader.open(bench.connstring, deadline: .now + .seconds(10))
        bench.server.fault(.garbage)
        let error = expectThrows(NFCError.self) { try reader.read(until: .now + .seconds(3)) }
        guard case let .garbled(call, _)? = error else {
            Issue.record("expected a garbled-reply error, got \(String(describing: error))")
            return
        }
        #expect(call == "nfc_initiator_select_passive_target")
        #expect(error?.description.contains("garbled") == true)
        // Healed, the same reader reads the card.
        bench.server.fault(.none)
        #expect(try reader.read(until: .now + .seconds(3))?.uid == Self.classicUID)
    }

    @Test("a PN532 that goes silent: a typed timeout naming the call, not a hang")
    func silentWhilePolling() throws {
        let bench = try Bench()
        let reader = try NFCReader.open(bench.connstring, deadline: .now + .seconds(10))
        bench.server.fault(.silent)
        let error = expectThrows(NFCError.self) { try reader.read(until: .now + .seconds(5)) }
        guard case let .notAnswering(call, _)? = error else {
            Issue.record("expected a not-answering error, got \(String(describing: error))")
            return
        }
        #expect(call == "nfc_initiator_select_passive_target")
    }

    @Test("a silent PN532 at open: no reader answered, with the fix")
    func silentAtOpen() throws {
        let bench = try Bench()
        bench.server.fault(.silent)
        let error = expectThrows(NFCError.self) { try NFCReader.open(bench.connstring, deadline: .now + .seconds(10)) }
        guard case .noReader? = error else {
            Issue.record("expected no-reader, got \(String(describing: error))")
            return
        }
        #expect(error?.description.contains("switches") == true)
    }

    @Test("one fpmod opener at a time: a second is told the reader is in use, and may open it after close")
    func oneOpenerAtATime() throws {
        let bench = try Bench()
        let reader = try NFCReader.open(bench.connstring, deadline: .now + .seconds(10))
        let before = bench.server.chip.commandsHandled
        let error = expectThrows(NFCError.self) { try NFCReader.open(bench.connstring, deadline: .now + .seconds(10)) }
        guard case .inUse? = error else {
            Issue.record("expected in-use, got \(String(describing: error))")
            return
        }
        #expect(error?.description.contains("in use by another fpmod program") == true)
        #expect(bench.server.chip.commandsHandled == before, "the second opener sent nothing to the reader")
        reader.close()
        let again = try NFCReader.open(bench.connstring, deadline: .now + .seconds(10))
        again.close()
    }

    @Test("reopened after close: libnfc's wake-up from power-down is answered")
    func reopen() throws {
        let bench = try Bench(card: try SimulatedCard(kind: .classic, uid: Self.classicUID))
        for _ in 0..<2 {
            let reader = try NFCReader.open(bench.connstring, deadline: .now + .seconds(10))
            #expect(try reader.read(until: .now + .seconds(3))?.uid == Self.classicUID)
            reader.close()
            // libnfc's close releases the target, drops the field and powers the PN532 down.
            #expect(bench.server.chip.asleep)
        }
    }
}

@Suite("NFCReader: inputs checked before libnfc is called")
struct NFCReaderInputTests {
    @Test("bad connection strings are refused with the reason")
    func invalidConnections() {
        for connstring in ["", "pn532_uart", "pn532_uart:ttyS0", "pn999:/dev/ttyS0", "pn532_uart:/dev/ttyS0:fast", "pn532_uart:/dev/tty\u{1B}[2J",
                           "pn532_uart:/dev/ttyS0:115200:extra"] {
            let error = expectThrows(NFCError.self) { try NFCReader.open(connstring, deadline: .now + .seconds(1)) }
            guard case .invalidConnection? = error else {
                Issue.record("\(connstring.debugDescription): expected invalidConnection, got \(String(describing: error))")
                continue
            }
        }
    }

    @Test("a missing port and a file that is not a device")
    func notThere() throws {
        let missing = expectThrows(NFCError.self) { try NFCReader.open("pn532_uart:/dev/fpmod-no-such-tty", deadline: .now + .seconds(1)) }
        #expect(missing == .noSuchPort("/dev/fpmod-no-such-tty"))
        let file = NSTemporaryDirectory() + "fpmod-nfc-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: file) }
        let notDevice = expectThrows(NFCError.self) { try NFCReader.open("pn532_uart:\(file)", deadline: .now + .seconds(1)) }
        #expect(notDevice == .notADevice(file))
    }

    @Test("card kinds from SAK and ATQA")
    func kinds() {
        #expect(NFCCard(uid: [1, 2, 3, 4], atqa: 0x0004, sak: 0x08).kind == .classic)
        #expect(NFCCard(uid: [1, 2, 3, 4], atqa: 0x0002, sak: 0x18).kind == .classic)
        #expect(NFCCard(uid: [1, 2, 3, 4, 5, 6, 7], atqa: 0x0044, sak: 0x00).kind == .ultralight)
        #expect(NFCCard(uid: [1, 2, 3, 4, 5, 6, 7], atqa: 0x0344, sak: 0x20).kind == .desfire)
        #expect(NFCCard(uid: [1, 2, 3, 4], atqa: 0x0004, sak: 0x20).kind == .other)
        #expect(NFCCard(uid: [8, 2, 3, 4], atqa: 0x0004, sak: 0x28).kind == .classic)
    }
}
