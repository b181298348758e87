import CFreefare
import CNfc
import Foundation
@testable import NFCInput
import PN532Simulator
import Testing

/// libfreefare's own calls for the DESFire commands the simulated card answers beyond what
/// fpmod sends (listing applications, key settings and version under an AES session's CMAC, the
/// enciphered real UID, formatting): libfreefare checks every MAC and CRC, so a card model that
/// computed them wrongly fails here. Through the reader's device and `LibNFC`'s lock, as
/// NFCInput's own calls go.
@Suite("libfreefare's DESFire commands against the simulated card", .serialized)
struct LibfreefareCommandTests {
    static let uid: [UInt8] = [0x04, 0x52, 0x7A, 0x92, 0xC1, 0x5E, 0x80]
    static let masterKey: [UInt8] = Array(0..<16)

    @Test("GetApplicationIDs, GetKeySettings and GetKeyVersion (CMAC'd), GetCardUID (enciphered), FormatPICC")
    func commands() throws {
        let server = try PN532SimulatorServer(card: try SimulatedCard(kind: .desfire, uid: Self.uid))
        server.start()
        defer { server.stop() }
        let reader = try NFCReader.open("pn532_uart:\(server.devicePath):115200", deadline: .now + .seconds(10))
        defer { reader.close() }
        guard case .created? = try reader.provisionSecure(until: .now + .seconds(5), masterKey: Self.masterKey) else {
            Issue.record("the enroll did not create the application")
            return
        }
        let cardKey = try DESFireApplication.fpmod.cardKey(masterKey: Self.masterKey, uid: Self.uid)
        let info = try #require(try reader.selectTarget())
        LibNFC.withLock {
            guard let tag = freefare_tag_new(reader.device, info) else {
                Issue.record("freefare_tag_new refused the simulated DESFire")
                return
            }
            defer { freefare_free_tag(tag) }
            #expect(mifare_desfire_connect(tag) == 0)
            defer { _ = mifare_desfire_disconnect(tag) }

            // The PICC's directory is free to list with the factory settings.
            #expect(applicationIDs(tag) == [DESFireApplication.fpmod.aid])

            let aid = mifare_desfire_aid_new(DESFireApplication.fpmod.aid)
            defer { free(UnsafeMutableRawPointer(aid)) }
            #expect(mifare_desfire_select_application(tag, aid) == 0)
            var keyBytes = cardKey
            let key = mifare_desfire_aes_key_new_with_version(&keyBytes, 0)
            defer { mifare_desfire_key_free(key) }
            #expect(mifare_desfire_authenticate_aes(tag, 0, key) == 0)
            // (Pointer arguments are made outside #expect, which captures its operands.)
            var settings: UInt8 = 0, maxKeys: UInt8 = 0
            let settingsResult = mifare_desfire_get_key_settings(tag, &settings, &maxKeys)
            #expect(settingsResult == 0)
            #expect(settings == 0x09 && maxKeys == 1)
            var version: UInt8 = 0
            let versionResult = mifare_desfire_get_key_version(tag, 0, &version)
            #expect(versionResult == 0)
            #expect(version == 1)
            var uidText: UnsafeMutablePointer<CChar>?
            let uidResult = mifare_desfire_get_card_uid(tag, &uidText)
            #expect(uidResult == 0)
            #expect(uidText.map { String(cString: $0) } == "04527a92c15e80")
            free(uidText)

            // FormatPICC takes the PICC master key's session.
            #expect(mifare_desfire_select_application(tag, nil) == 0)
            #expect(mifare_desfire_format_picc(tag) != 0)
            var zero = [UInt8](repeating: 0, count: 8)
            // The factory PICC master key.
            let piccKey = mifare_desfire_des_key_new_with_version(&zero)
            defer { mifare_desfire_key_free(piccKey) }
            #expect(mifare_desfire_authenticate(tag, 0, piccKey) == 0)
            #expect(mifare_desfire_format_picc(tag) == 0)
            #expect(applicationIDs(tag) == [])
        }
    }

    func applicationIDs(_ tag: OpaquePointer) -> [UInt32]? {
        var aids: UnsafeMutablePointer<OpaquePointer?>?
        var count = 0
        guard mifare_desfire_get_application_ids(tag, &aids, &count) == 0 else { return nil }
        defer { if let aids { mifare_desfire_free_application_ids(aids) } }
        return (0..<count).compactMap { index in aids?[index].map { mifare_desfire_aid_get_aid($0) } }
    }
}
