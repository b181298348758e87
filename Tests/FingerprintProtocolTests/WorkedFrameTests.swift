import Testing
@testable import FingerprintProtocol

/// The worked frames of protocol.md §1.4 and ../shared/vectors/frames.py, byte for byte —
/// several of them captured from real modules.
struct WorkedFrameTests {
    static let vectors: [(String, Frame, String)] = [
        ("VfyPwd 0", Command.verifyPassword(0).frame(), "EF 01 FF FF FF FF 01 00 07 13 00 00 00 00 00 1B"),
        ("ack OK", Acknowledgement(code: .success).frame(), "EF 01 FF FF FF FF 07 00 03 00 00 0A"),
        ("GenImg", Command.genImg.frame(), "EF 01 FF FF FF FF 01 00 03 01 00 05"),
        ("no finger", Acknowledgement(code: .noFinger).frame(), "EF 01 FF FF FF FF 07 00 03 02 00 0C"),
        ("Img2Tz 1", Command.img2Tz(buffer: 1).frame(), "EF 01 FF FF FF FF 01 00 04 02 01 00 08"),
        ("Search 0..1000", Command.search(buffer: 1, start: 0, count: 1000).frame(),
         "EF 01 FF FF FF FF 01 00 08 04 01 00 00 03 E8 00 F9"),
        ("Search hit R503", Acknowledgement(code: .success, payload: SearchHit(slot: 1, score: 96).payload).frame(),
         "EF 01 FF FF FF FF 07 00 07 00 00 01 00 60 00 6F"),
        ("Search hit synthetic", Acknowledgement(code: .success, payload: SearchHit(slot: 5, score: 200).payload).frame(),
         "EF 01 FF FF FF FF 07 00 07 00 00 05 00 C8 00 DB"),
        ("Search miss junk", Acknowledgement(code: .notFound, payload: [0x01, 0xEE, 0x00, 0x00]).frame(),
         "EF 01 FF FF FF FF 07 00 07 09 01 EE 00 00 01 06"),
        ("ReadSysPara", Command.readSysPara.frame(), "EF 01 FF FF FF FF 01 00 03 0F 00 13"),
        ("SysPara R503", Acknowledgement(code: .success, payload: SystemParameters(
            status: .passwordVerified, capacity: 200, securityLevel: 3, packetSizeCode: 2, baudMultiplier: 6).encoded()).frame(),
         "EF 01 FF FF FF FF 07 00 13 00 00 04 00 00 00 C8 00 03 FF FF FF FF 00 02 00 06 04 ED"),
        ("SysPara R502", Acknowledgement(code: .success, payload: SystemParameters(capacity: 200).encoded()).frame(),
         "EF 01 FF FF FF FF 07 00 13 00 00 00 00 00 00 C8 00 03 FF FF FF FF 00 02 00 06 04 E9"),
        ("SysPara Adafruit 4750", Acknowledgement(code: .success, payload: SystemParameters(
            capacity: 80, baudMultiplier: 12).encoded()).frame(),
         "EF 01 FF FF FF FF 07 00 13 00 00 00 00 00 00 50 00 03 FF FF FF FF 00 02 00 0C 04 77"),
        ("SetSysPara baud 12", Command.setSysPara(.baudRate, value: 12).frame(), "EF 01 FF FF FF FF 01 00 05 0E 04 0C 00 24"),
        ("Aura breathing", Command.auraLed(.breathing, speed: 0x80, color: .blue, count: 0).frame(),
         "EF 01 FF FF FF FF 01 00 07 35 01 80 02 00 00 C0"),
        ("TempleteNum", Command.templateCount.frame(), "EF 01 FF FF FF FF 01 00 03 1D 00 21"),
        ("Empty", Command.empty.frame(), "EF 01 FF FF FF FF 01 00 03 0D 00 11"),
        ("UpChar 1", Command.upChar(buffer: 1).frame(), "EF 01 FF FF FF FF 01 00 04 08 01 00 0E"),
        ("Search FFFF", Command.search(buffer: 1, start: 0, count: 0xFFFF).frame(),
         "EF 01 FF FF FF FF 01 00 08 04 01 00 00 FF FF 02 0C"),
        ("Search at 12345678", Command.search(buffer: 1, start: 0, count: 1000).frame(address: 0x1234_5678),
         "EF 01 12 34 56 78 01 00 08 04 01 00 00 03 E8 00 F9"),
    ]

    @Test(arguments: 0..<vectors.count)
    func encodesExactly(index: Int) {
        let (name, frame, expected) = Self.vectors[index]
        #expect(frame.encoded() == hex(expected), "\(name)")
    }

    @Test(arguments: 0..<vectors.count)
    func decodesBack(index: Int) {
        let (name, frame, expected) = Self.vectors[index]
        var decoder = FrameDecoder()
        decoder.feed(hex(expected))
        #expect(decoder.nextFrame() == frame, "\(name)")
        #expect(decoder.nextFrame() == nil)
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func realR503SysParaParses() throws {
        var decoder = FrameDecoder()
        decoder.feed(hex("EF 01 FF FF FF FF 07 00 13 00 00 04 00 00 00 C8 00 03 FF FF FF FF 00 02 00 06 04 ED"))
        let frame = decoder.nextFrame()
        let ack = try Acknowledgement(frame: try #require(frame))
        let parameters = try SystemParameters(bytes: ack.payload)
        #expect(parameters.capacity == 200)
        #expect(parameters.securityLevel == 3)
        #expect(parameters.status.contains(.passwordVerified))
        #expect(parameters.address == 0xFFFF_FFFF)
        #expect(parameters.packetSize == 128)
        #expect(parameters.baudRate == 57600)
    }

    @Test func adafruit4750BaudIsFullWidth() throws {
        let parameters = try SystemParameters(bytes: hex("00 00 00 00 00 50 00 03 FF FF FF FF 00 02 00 0C"))
        #expect(parameters.baudRate == 115_200)
        #expect(parameters.capacity == 80)
    }

    @Test func dataPacketChecksums() {
        #expect(Frame(packetID: .data, content: [UInt8](repeating: 0, count: 128)).checksum == 0x0084)
        #expect(Frame(packetID: .end, content: [UInt8](repeating: 0, count: 128)).checksum == 0x008A)
        #expect(Frame(packetID: .data, content: [UInt8](repeating: 0, count: 128)).lengthField == 0x82)
        // The largest legal sum (END full of FF) still fits: protocol.md §1.2.
        #expect(Frame(packetID: .end, content: [UInt8](repeating: 0xFF, count: 256)).checksum == 0xFF0B)
    }

    @Test func searchMissPayloadIsNotReadAsAHit() throws {
        let ack = try Acknowledgement(frame: Frame(packetID: .acknowledge, content: hex("09 01 EE 00 00")))
        #expect(ack.code == .notFound)
        #expect(!ack.isSuccess)
    }
}
