import FingerprintProtocol
import ModuleSimulator
import Testing

@Suite struct TransferTests {
    @Test(arguments: [0, 1, 2, 3])
    func uploadsUseTheConfiguredPacketSize(code: Int) throws {
        let host = try Harness()
        #expect(try host.code(.setSysPara(.packetSize, value: UInt8(code))) == 0)
        let size = 32 << code
        host.server.place("frank")
        #expect(try host.capture(into: 1) == 0)
        let char = try host.upload(.upChar(buffer: 1))
        #expect(char.ack.isSuccess)
        #expect(char.payload.count == 256)
        #expect(char.packets.count == 256 / size)
        #expect(char.packets.dropLast().allSatisfy { $0.packetID == .data && $0.content.count == size })
        let image = try host.upload(.upImage)
        #expect(image.payload.count == 256 * 288 / 2)
        #expect(image.packets.count == 36864 / size)
        // Ridges: the image is not flat.
        #expect(Set(image.payload).count > 8)
    }

    @Test func templateRoundTripsThroughTheHostAndAnotherModule() throws {
        let first = try Harness()
        try first.enroll("grace", slot: 9)
        #expect(try first.code(.loadChar(buffer: 1, slot: 9)) == 0)
        let backup = try first.upload(.upChar(buffer: 1)).payload
        #expect(backup.count == 512)
        #expect(backup == first.server.library[9])

        // Restore into a second, empty module of the same profile.
        let second = try Harness()
        #expect(try second.download(.downChar(buffer: 1), payload: backup) == Acknowledgement(code: .success))
        #expect(try second.code(.store(buffer: 1, slot: 4)) == 0)
        #expect(second.server.library[4] == backup)
        #expect(try second.code(.loadChar(buffer: 2, slot: 4)) == 0)
        #expect(try second.upload(.upChar(buffer: 2)).payload == backup)
        // And the restored template still recognises the finger.
        second.server.place("grace")
        #expect(try second.capture(into: 1) == 0)
        let hit = try second.ack(.search(buffer: 1, start: 0, count: 1000))
        #expect(hit.code == .success)
        #expect(try SearchHit(payload: hit.payload).slot == 4)
    }

    @Test func uploadedImageComesBackDown() throws {
        let host = try Harness()
        host.server.place("heidi")
        #expect(try host.code(.genImg) == 0)
        let image = try host.upload(.upImage).payload
        host.server.lift()
        #expect(try host.download(.downImage, payload: image) == Acknowledgement(code: .success))
        #expect(try host.code(.img2Tz(buffer: 1)) == 0)
        // Random pixels are not a fingerprint.
        #expect(try host.download(.downImage, payload: [UInt8](repeating: 0x77, count: image.count)) == Acknowledgement(code: .success))
        #expect(try host.code(.img2Tz(buffer: 1)) == 0x06)
    }

    @Test func corruptedPacketAbortsTheDownload() throws {
        let host = try Harness()
        host.server.place("ivan")
        #expect(try host.capture(into: 1) == 0)
        let char = try host.upload(.upChar(buffer: 1)).payload
        #expect(try host.ack(.downChar(buffer: 2)).isSuccess)
        var bytes = DataTransfer.encoded(char, packetSize: 128)
        bytes[20] ^= 0xFF
        try host.send(bytes)
        // Buffer 2 never received a file: merging it with buffer 1 fails.
        #expect(try host.code(.regModel) == 0x0A)
    }
}
