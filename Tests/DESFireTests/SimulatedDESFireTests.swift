import DESFire
import PN532Simulator
import Testing

/// The card model alone: a host written here from the EV1 data sheet talks to it in ISO 7816
/// wrapping, as libfreefare does. (The end-to-end tests in NFCInputTests and fpmodTests have
/// libfreefare itself talk to it.)
@Suite("SimulatedDESFire: authentication, applications, keys, status codes")
struct SimulatedDESFireTests {
    static let uid = hex("04A1B2C3D4E5F6")
    static let aid: [UInt8] = [0x01, 0x4D, 0xF5]

    /// Sends `code data` wrapped; returns the data and the status byte after `91`.
    static func send(_ card: Card, _ code: UInt8, _ data: [UInt8] = []) -> (data: [UInt8], status: UInt8) {
        let apdu: [UInt8] = data.isEmpty ? [0x90, code, 0, 0, 0] : [0x90, code, 0, 0, UInt8(data.count)] + data + [0]
        let answer = card.state.exchange(apdu)
        #expect(answer.count >= 2 && answer[answer.count - 2] == 0x91)
        return (Array(answer.dropLast(2)), answer.last!)
    }

    static func rotated(_ bytes: [UInt8]) -> [UInt8] { Array(bytes.dropFirst()) + [bytes[0]] }

    /// EV1 AES authentication from the host's side; the session key, or the failing status.
    static func authenticateAES(_ card: Card, keyNumber: UInt8, key: [UInt8]) throws -> Result<[UInt8], DESFireError> {
        let zero = [UInt8](repeating: 0, count: 16)
        let first = send(card, 0xAA, [keyNumber])
        guard first.status == 0xAF else { return .failure(DESFireError(status: first.status)) }
        let randomB = try BlockCipher.aes128.decryptCBC(key: key, iv: zero, first.data)
        let randomA = try randomBytes(16)
        let token = try BlockCipher.aes128.encryptCBC(key: key, iv: first.data, randomA + rotated(randomB))
        let second = send(card, 0xAF, token)
        guard second.status == 0x00 else { return .failure(DESFireError(status: second.status)) }
        let answer = try BlockCipher.aes128.decryptCBC(key: key, iv: Array(token.suffix(16)), second.data)
        #expect(answer == rotated(randomA))
        return .success(Array(randomA[0..<4] + randomB[0..<4] + randomA[12..<16] + randomB[12..<16]))
    }

    /// Legacy authentication with a DES key (send mode: the host deciphers).
    static func authenticateLegacy(_ card: Card, key: [UInt8]) throws -> UInt8 {
        let zero = [UInt8](repeating: 0, count: 8)
        let first = send(card, 0x0A, [0x00])
        guard first.status == 0xAF else { return first.status }
        let randomB = try BlockCipher.des.decryptCBC(key: key, iv: zero, first.data)
        let randomA = try randomBytes(8)
        let c1 = try BlockCipher.des.decryptCBC(key: key, iv: zero, randomA)
        let c2 = try BlockCipher.des.decryptCBC(key: key, iv: zero, zip(rotated(randomB), c1).map { $0 ^ $1 })
        let second = send(card, 0xAF, c1 + c2)
        guard second.status == 0x00 else { return second.status }
        #expect(try BlockCipher.des.decryptCBC(key: key, iv: zero, second.data) == rotated(randomA))
        return 0x00
    }

    struct DESFireError: Error, Equatable { let status: UInt8 }

    /// The card the host talks to; a class, so no inout argument goes through #expect.
    final class Card {
        var state: SimulatedDESFire
        init(_ state: SimulatedDESFire) { self.state = state }
    }

    /// A card with fpmod-like application (one AES key, still zero), selected.
    static func cardWithApplication() throws -> Card {
        let card = Card(SimulatedDESFire(uid: uid))
        #expect(try authenticateLegacy(card, key: [UInt8](repeating: 0, count: 8)) == 0x00)
        #expect(send(card, 0xCA, aid + [0x09, 0x81]).status == 0x00)
        #expect(send(card, 0x5A, aid).status == 0x00)
        return card
    }

    @Test("legacy authentication with the factory key, then CreateApplication; a second one is DUPLICATE_ERROR")
    func createApplication() throws {
        let card = Card(SimulatedDESFire(uid: Self.uid))
        #expect(try Self.authenticateLegacy(card, key: [UInt8](repeating: 0, count: 8)) == 0x00)
        #expect(Self.send(card, 0xCA, Self.aid + [0x09, 0x81]).status == 0x00)
        #expect(Self.send(card, 0xCA, Self.aid + [0x09, 0x81]).status == 0xDE)
        #expect(card.state.application(0xF54D01)?.keys.count == 1)
    }

    @Test("a non-default PICC key fails legacy authentication with AUTHENTICATION_ERROR")
    func wrongPICCKey() throws {
        let card = Card(SimulatedDESFire(uid: Self.uid, piccKey: .init(cipher: .des, bytes: hex("0011223344556677"))))
        #expect(try Self.authenticateLegacy(card, key: [UInt8](repeating: 0, count: 8)) == 0xAE)
    }

    @Test("an application that is not there: APPLICATION_NOT_FOUND")
    func missingApplication() {
        let card = Card(SimulatedDESFire(uid: Self.uid))
        #expect(Self.send(card, 0x5A, Self.aid).status == 0xA0)
    }

    @Test("AES authentication: the right key passes, a wrong one is AUTHENTICATION_ERROR")
    func aesAuthentication() throws {
        let card = try Self.cardWithApplication()
        #expect(try Self.authenticateAES(card, keyNumber: 0, key: hex("000102030405060708090A0B0C0D0E0F")) == .failure(DESFireError(status: 0xAE)))
        #expect(try Self.authenticateAES(card, keyNumber: 0, key: [UInt8](repeating: 0, count: 16)).get().count == 16)
        #expect(try Self.authenticateAES(card, keyNumber: 5, key: [UInt8](repeating: 0, count: 16)) == .failure(DESFireError(status: 0x40)))
    }

    @Test("ChangeKey of the authenticated key, enciphered with CRC32: only the new key authenticates after")
    func changeKey() throws {
        let card = try Self.cardWithApplication()
        let zero = [UInt8](repeating: 0, count: 16)
        let sessionKey = try Self.authenticateAES(card, keyNumber: 0, key: zero).get()
        let newKey = hex("00112233445566778899AABBCCDDEEFF")
        var plain = newKey + [0x00]
        plain += DESFireCRC32.bytes([0xC4, 0x00] + plain)
        while plain.count % 16 != 0 { plain.append(0) }
        let enciphered = try BlockCipher.aes128.encryptCBC(key: sessionKey, iv: zero, plain)
        let answer = Self.send(card, 0xC4, [0x00] + enciphered)
        #expect(answer.status == 0x00 && answer.data.isEmpty)
        #expect(try Self.authenticateAES(card, keyNumber: 0, key: zero) == .failure(DESFireError(status: 0xAE)))
        #expect(try Self.authenticateAES(card, keyNumber: 0, key: newKey).get().count == 16)
    }

    @Test("ChangeKey with a broken CRC is INTEGRITY_ERROR and the key stays")
    func changeKeyIntegrity() throws {
        let card = try Self.cardWithApplication()
        let zero = [UInt8](repeating: 0, count: 16)
        let sessionKey = try Self.authenticateAES(card, keyNumber: 0, key: zero).get()
        var plain = hex("00112233445566778899AABBCCDDEEFF") + [0x00, 0xDE, 0xAD, 0xBE, 0xEF]
        while plain.count % 16 != 0 { plain.append(0) }
        let enciphered = try BlockCipher.aes128.encryptCBC(key: sessionKey, iv: zero, plain)
        #expect(Self.send(card, 0xC4, [0x00] + enciphered).status == 0x1E)
        #expect(try Self.authenticateAES(card, keyNumber: 0, key: zero).get().count == 16)
    }

    @Test("in an AES session, GetKeySettings carries the CMAC of data and status with the chained IV")
    func macedAnswer() throws {
        let card = try Self.cardWithApplication()
        let sessionKey = try Self.authenticateAES(card, keyNumber: 0, key: [UInt8](repeating: 0, count: 16)).get()
        let answer = Self.send(card, 0x45)
        #expect(answer.status == 0x00)
        let cmac = try CMAC(cipher: .aes128, key: sessionKey)
        var iv = [UInt8](repeating: 0, count: 16)
        _ = try cmac.mac([0x45], iv: &iv)
        let expected = try cmac.mac([0x09, 0x81, 0x00], iv: &iv)
        #expect(answer.data == [0x09, 0x81] + expected.prefix(8))
    }

    @Test("GetVersion answers in three frames chained by ADDITIONAL_FRAME, the UID in the last")
    func version() {
        let card = Card(SimulatedDESFire(uid: Self.uid))
        let first = Self.send(card, 0x60)
        #expect(first.status == 0xAF && first.data.count == 7 && first.data[0] == 0x04)
        #expect(Self.send(card, 0xAF).status == 0xAF)
        let last = Self.send(card, 0xAF)
        #expect(last.status == 0x00 && Array(last.data.prefix(7)) == Self.uid)
        #expect(Self.send(card, 0xAF).status == 0x1C)
    }

    @Test("an unknown command code: ILLEGAL_COMMAND_CODE")
    func unknownCommand() {
        let card = Card(SimulatedDESFire(uid: Self.uid))
        #expect(Self.send(card, 0x3D, [0x01]).status == 0x1C)
    }
}
