import Foundation
import PN532Simulator
import Posix
import Testing

/// libnfc-bin's `nfc-list`, a client we did not write, against the simulated PN532: it opens
/// the port itself, lists every modulation libnfc knows (type A, FeliCa, B and its kin through
/// raw frames, Jewel, barcode), and prints what it found.
@Suite("nfc-list against the simulated PN532", .serialized)
struct NFCListTests {
    static let nfcList = "/usr/bin/nfc-list"

    func nfcList(_ server: PN532SimulatorServer) throws -> (status: Int32, output: String) {
        try LibNFCTool.run(Self.nfcList, against: server)
    }

    @Test("nfc-list lists the placed card's UID, ATQA and SAK")
    func listsClassic() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.nfcList), "nfc-list is missing: tools/install-deps.sh installs libnfc-bin")
        let server = try PN532SimulatorServer(card: try SimulatedCard(kind: .classic, uid: [0xDE, 0xAD, 0xBE, 0xEF]))
        server.start()
        defer { server.stop() }
        let (status, output) = try nfcList(server)
        #expect(status == 0, "\(output)")
        // LIBNFC_DEFAULT_DEVICE's device is named so by libnfc.
        #expect(output.contains("NFC device: user defined default device opened"), "\(output)")
        // Every command of the whole listing (type A, FeliCa, B, B', SR, CT, iClass, Jewel,
        // barcode) was understood: the PN532 sent no error frame.
        #expect(!output.contains("Application level error"), "\(output)")
        #expect(output.contains("1 ISO14443A passive target(s) found"), "\(output)")
        // nfc-list prints bytes as two hex digits and two spaces.
        #expect(output.contains("UID (NFCID1): de  ad  be  ef"), "\(output)")
        #expect(output.contains("ATQA (SENS_RES): 00  04"), "\(output)")
        #expect(output.contains("SAK (SEL_RES): 08"), "\(output)")
    }

    @Test("nfc-list finds a DESFire with its ATS, and nothing once it is removed")
    func listsDESFireThenNothing() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.nfcList), "nfc-list is missing: tools/install-deps.sh installs libnfc-bin")
        let server = try PN532SimulatorServer(card: try SimulatedCard(kind: .desfire, uid: [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66]))
        server.start()
        defer { server.stop() }
        let (status, output) = try nfcList(server)
        #expect(status == 0, "\(output)")
        #expect(output.contains("UID (NFCID1): 04  11  22  33  44  55  66"), "\(output)")
        #expect(output.contains("ATS: 75  77  81  02  80"), "\(output)")
        server.remove()
        let (_, empty) = try nfcList(server)
        #expect(empty.contains("opened"), "\(empty)")
        #expect(!empty.contains("passive target(s) found"), "\(empty)")
    }
}

@Suite("The simulated PN532's control socket")
struct PN532ControlSocketTests {
    @Test("place, status, fault and remove as JSON lines; bad lines get an error line")
    func controlLines() throws {
        let path = NSTemporaryDirectory() + "fpmod-pn532-\(UUID().uuidString).sock"
        let server = try PN532SimulatorServer(controlPath: path)
        server.start()
        defer { server.stop() }
        let connection = try UnixConnection.connect(path: path)
        defer { connection.close() }
        func ask(_ line: String) throws -> String {
            try connection.send(line: line, deadline: .now + .seconds(5))
            return try connection.readLine(deadline: .now + .seconds(5)) ?? "(closed)"
        }
        #expect(try ask(#"{"place":"classic","uid":"0a1b2c3d"}"#).contains(#""uid":"0A1B2C3D""#))
        let status = try ask(#"{"status":true}"#)
        #expect(status.contains(#""type":"classic""#) && status.contains(#""fault":"none""#), "\(status)")
        #expect(try ask(#"{"fault":"silent"}"#) == #"{"fault":"silent","ok":true}"#)
        #expect(try ask(#"{"remove":true}"#) == #"{"ok":true,"removed":true}"#)
        #expect(try ask(#"{"status":true}"#).contains(#""card":null"#))
        for bad in [#"{"place":"classic","uid":"0A1B2C"}"#, #"{"place":"desfire","uid":"0A1B2C3D"}"#, #"{"fault":"loud"}"#,
                    #"{"place":"classic","uid":"0A1B2C3D","colour":"red"}"#, #"{"remove":true,"status":true}"#, "place classic", "[]"] {
            let reply = try ask(bad)
            #expect(reply.hasPrefix(#"{"error":"#), "\(bad) → \(reply)")
        }
    }
}
