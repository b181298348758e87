import Foundation
import NFCInput
import PN532Simulator
import Testing
import TestSupport

/// Real libnfc and real libfreefare against the simulated PN532 holding a simulated DESFire
/// EV1: enrolling (application, AES key), reading with AES authentication, and the failures.
@Suite("DESFire: real libfreefare against the simulated card", .serialized)
struct DESFireReaderTests {
    static let uid: [UInt8] = [0x04, 0x52, 0x7A, 0x92, 0xC1, 0x5E, 0x80]
    static let masterKey: [UInt8] = Array(0..<16)
    static let otherMasterKey: [UInt8] = Array(100..<116)

    final class Bench {
        let server: PN532SimulatorServer
        let reader: NFCReader

        init(card: SimulatedCard?) throws {
            server = try PN532SimulatorServer(card: card)
            server.start()
            reader = try NFCReader.open("pn532_uart:\(server.devicePath):115200", deadline: .now + .seconds(10))
        }

        deinit {
            reader.close()
            server.stop()
        }
    }

    static func desfire(piccKey: [UInt8]? = nil) throws -> SimulatedCard {
        try SimulatedCard(kind: .desfire, uid: uid, piccKey: piccKey)
    }

    @Test("enroll creates fpmod's application with the card's diversified AES key; then the card authenticates")
    func enrollThenRead() throws {
        let bench = try Bench(card: try Self.desfire())
        let before = try bench.reader.readSecure(until: .now + .seconds(5), masterKey: Self.masterKey)
        guard case let .rejected(card, .noApplication)? = before else {
            Issue.record("a blank card must be rejected for having no application, got \(String(describing: before))")
            return
        }
        #expect(card.uid == Self.uid)
        let provisioning = try bench.reader.provisionSecure(until: .now + .seconds(5), masterKey: Self.masterKey)
        guard case .created? = provisioning else {
            Issue.record("expected the application created, got \(String(describing: provisioning))")
            return
        }
        // The card itself now holds the diversified key (not the master key, not zero).
        let expected = try DESFireApplication.fpmod.cardKey(masterKey: Self.masterKey, uid: Self.uid)
        let stored = bench.server.chip.desfireCards[Self.uid]?.application(DESFireApplication.fpmod.aid)?.keys.first
        #expect(stored?.bytes == expected)
        #expect(stored?.version == 1)
        let read = try bench.reader.readSecure(until: .now + .seconds(5), masterKey: Self.masterKey)
        #expect(read == .authenticated(card))
        // Told to write another card, it waits that one out and writes nothing.
        #expect(try bench.reader.provisionSecure(until: .now + .milliseconds(400), masterKey: Self.otherMasterKey, uid: [0x04, 1, 2, 3, 4, 5, 6]) == nil)
        // A second enroll finds the key in place and changes nothing.
        #expect(try bench.reader.provisionSecure(until: .now + .seconds(5), masterKey: Self.masterKey) == .alreadyKeyed(card))
    }

    @Test("another store's master key: AUTHENTICATION_ERROR from the card, the read is rejected, never accepted")
    func wrongKey() throws {
        let bench = try Bench(card: try Self.desfire())
        _ = try bench.reader.provisionSecure(until: .now + .seconds(5), masterKey: Self.masterKey)
        let read = try bench.reader.readSecure(until: .now + .seconds(5), masterKey: Self.otherMasterKey)
        guard case .rejected(_, .wrongKey)? = read else {
            Issue.record("expected a wrong-key rejection, got \(String(describing: read))")
            return
        }
        // And enrolling it into the other store is refused, not re-keyed.
        let provisioning = try bench.reader.provisionSecure(until: .now + .seconds(5), masterKey: Self.otherMasterKey)
        guard case .keyedElsewhere? = provisioning else {
            Issue.record("expected keyed-elsewhere, got \(String(describing: provisioning))")
            return
        }
    }

    @Test("a card whose PICC master key is not the factory key is refused, and left untouched")
    func piccKeyNotDefault() throws {
        let bench = try Bench(card: try Self.desfire(piccKey: [1, 2, 3, 4, 5, 6, 7, 8]))
        let provisioning = try bench.reader.provisionSecure(until: .now + .seconds(5), masterKey: Self.masterKey)
        guard case .piccKeyNotDefault? = provisioning else {
            Issue.record("expected the PICC key refusal, got \(String(describing: provisioning))")
            return
        }
        #expect(bench.server.chip.desfireCards[Self.uid]?.applications.isEmpty == true)
    }

    @Test("a MIFARE Classic is a plain card: no DESFire dialog, no authentication")
    func plainCard() throws {
        let bench = try Bench(card: try SimulatedCard(kind: .classic, uid: [0x0A, 0x1B, 0x2C, 0x3D]))
        let read = try bench.reader.readSecure(until: .now + .seconds(5), masterKey: Self.masterKey)
        guard case let .plain(card)? = read else {
            Issue.record("expected a plain card, got \(String(describing: read))")
            return
        }
        #expect(card.kind == .classic)
        #expect(try bench.reader.provisionSecure(until: .now + .seconds(5), masterKey: Self.masterKey) == .notDESFire(card))
    }

    @Test("no card: nil at the deadline")
    func noCard() throws {
        let bench = try Bench(card: nil)
        #expect(try bench.reader.readSecure(until: .now + .milliseconds(600), masterKey: Self.masterKey) == nil)
    }

    @Test("a DESFire whose answers come garbled mid-dialog: a typed garbled-reply error naming the libfreefare call")
    func garbledExchange() throws {
        let bench = try Bench(card: try Self.desfire())
        _ = try bench.reader.provisionSecure(until: .now + .seconds(5), masterKey: Self.masterKey)
        bench.server.fault(.exchangeGarbage)
        let error = expectThrows(NFCError.self) { try bench.reader.readSecure(until: .now + .seconds(5), masterKey: Self.masterKey) }
        guard case let .garbled(call, _)? = error else {
            Issue.record("expected a garbled-reply error, got \(String(describing: error))")
            return
        }
        #expect(call.hasPrefix("mifare_desfire_"))
        bench.server.fault(.none)
        #expect(try bench.reader.readSecure(until: .now + .seconds(5), masterKey: Self.masterKey).map { if case .authenticated = $0 { true } else { false } } == true)
    }

    @Test("a silent PN532: a typed timeout, not a hang")
    func silent() throws {
        let bench = try Bench(card: try Self.desfire())
        bench.server.fault(.silent)
        let error = expectThrows(NFCError.self) { try bench.reader.readSecure(until: .now + .seconds(5), masterKey: Self.masterKey) }
        guard case .notAnswering? = error else {
            Issue.record("expected a not-answering error, got \(String(describing: error))")
            return
        }
    }

    @Test("a PN532 that goes silent in the middle of the DESFire dialog: a typed timeout naming the libfreefare call, not a hang")
    func silentMidDialog() throws {
        let bench = try Bench(card: try Self.desfire())
        bench.server.fault(.exchangeSilent)
        let started = ContinuousClock.now
        let error = expectThrows(NFCError.self) { try bench.reader.readSecure(until: .now + .seconds(5), masterKey: Self.masterKey) }
        guard case let .notAnswering(call, _)? = error else {
            Issue.record("expected a not-answering error, got \(String(describing: error))")
            return
        }
        #expect(call.hasPrefix("mifare_desfire_"), "\(call)")
        #expect(ContinuousClock.now - started < NFCReader.desfireExchangeBound * 4)
        // The reader is usable again once the PN532 answers.
        bench.server.fault(.none)
        #expect(try bench.reader.readSecure(until: .now + .seconds(5), masterKey: Self.masterKey) == .rejected(NFCCard(uid: Self.uid, atqa: 0x0344, sak: 0x20, ats: Array(SimulatedCard.desfireATS.dropFirst())), .noApplication))
    }
}
