import PN532
import Testing

@Suite("PN532 frames: the bytes on the wire")
struct FrameTests {
    // Vectors from the user manual's examples (GetFirmwareVersion, its PN532 v1.6 answer, and
    // SAMConfiguration normal mode as libnfc sends it).
    @Test("normal information frames: LEN, LCS, TFI, DCS and postamble")
    func normalFrames() {
        #expect(PN532Frame.information(.hostToPN532, [0x02]).bytes == [0x00, 0x00, 0xFF, 0x02, 0xFE, 0xD4, 0x02, 0x2A, 0x00])
        #expect(PN532Frame.information(.pn532ToHost, [0x03, 0x32, 0x01, 0x06, 0x07]).bytes
            == [0x00, 0x00, 0xFF, 0x06, 0xFA, 0xD5, 0x03, 0x32, 0x01, 0x06, 0x07, 0xE8, 0x00])
        #expect(PN532Frame.information(.hostToPN532, [0x14, 0x01]).bytes == [0x00, 0x00, 0xFF, 0x03, 0xFD, 0xD4, 0x14, 0x01, 0x17, 0x00])
    }

    @Test("ACK, NACK and the error frame")
    func controlFrames() {
        #expect(PN532Frame.ack.bytes == [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00])
        #expect(PN532Frame.nack.bytes == [0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00])
        #expect(PN532Frame.applicationError.bytes == [0x00, 0x00, 0xFF, 0x01, 0xFF, 0x7F, 0x81, 0x00])
    }

    @Test("254 data bytes still fit a normal frame; 255 need an extended one")
    func extendedThreshold() {
        let normal = PN532Frame.information(.hostToPN532, [UInt8](repeating: 0x11, count: 254)).bytes
        #expect(normal[3] == 0xFF && normal[4] == 0x01)
        #expect(normal.count == 254 + 8)
        let extended = PN532Frame.information(.hostToPN532, [UInt8](repeating: 0x11, count: 255)).bytes
        // FF FF marker, LEN = 256 (TFI + data) as 01 00, LCS FF.
        #expect(Array(extended[3...8]) == [0xFF, 0xFF, 0x01, 0x00, 0xFF, 0xD4])
        #expect(extended.count == 255 + 11)
        // TFI + data + DCS sum to zero, as in every information frame.
        #expect(extended[8..<(extended.count - 1)].reduce(0, &+) == 0)
        #expect(extended.last == 0x00)
    }

    @Test("response codes are the command's plus one")
    func responseCodes() {
        #expect(PN532Command.getFirmwareVersion.responseCode == 0x03)
        #expect(PN532Command.inListPassiveTarget.responseCode == 0x4B)
    }
}
