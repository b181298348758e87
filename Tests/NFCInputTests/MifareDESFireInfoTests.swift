import Foundation
import NFCInput
import PN532Simulator
import Testing

/// libfreefare-bin's `mifare-desfire-info`, a client we did not write, against the simulated
/// DESFire EV1: GetVersion in three frames, GetKeySettings, GetKeyVersion and FreeMemory, each
/// parsed by libfreefare's own code and printed.
@Suite("mifare-desfire-info against the simulated DESFire", .serialized)
struct MifareDESFireInfoTests {
    static let tool = "/usr/bin/mifare-desfire-info"
    static let uid: [UInt8] = [0x04, 0x52, 0x7A, 0x92, 0xC1, 0x5E, 0x80]

    func info(_ server: PN532SimulatorServer) throws -> (status: Int32, output: String) {
        try LibNFCTool.run(Self.tool, against: server)
    }

    @Test("a factory card: its UID, EV1 version, factory key settings and 4096 bytes free")
    func factoryCard() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.tool), "mifare-desfire-info is missing: tools/install-deps.sh installs libfreefare-bin")
        let server = try PN532SimulatorServer(card: try SimulatedCard(kind: .desfire, uid: Self.uid))
        server.start()
        defer { server.stop() }
        let (status, output) = try info(server)
        #expect(status == 0, "\(output)")
        #expect(output.contains("UID:                      0x04527a92c15e80"), "\(output)")
        #expect(output.contains("Storage size:         0x18 (=4096 bytes)"), "\(output)")
        #expect(output.contains("Master Key settings (0x0f)"), "\(output)")
        #expect(output.contains("Master Key version: 0 (0x00)"), "\(output)")
        #expect(output.contains("Free memory: 4096 bytes"), "\(output)")
    }

    @Test("after fpmod's enroll, the application takes card memory (FreeMemory as libfreefare reads it)")
    func afterEnroll() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.tool), "mifare-desfire-info is missing: tools/install-deps.sh installs libfreefare-bin")
        let server = try PN532SimulatorServer(card: try SimulatedCard(kind: .desfire, uid: Self.uid))
        server.start()
        defer { server.stop() }
        do {
            let reader = try NFCReader.open("pn532_uart:\(server.devicePath):115200", deadline: .now + .seconds(10))
            defer { reader.close() }
            let outcome = try reader.provisionSecure(until: .now + .seconds(5), masterKey: Array(0..<16))
            guard case .created? = outcome else {
                Issue.record("expected the application created, got \(String(describing: outcome))")
                return
            }
        }
        let (status, output) = try info(server)
        #expect(status == 0, "\(output)")
        #expect(output.contains("Free memory: 3840 bytes"), "\(output)")
    }
}
