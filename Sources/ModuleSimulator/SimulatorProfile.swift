import FingerprintProtocol

/// A module model the simulator can pretend to be: its family (which decides the instruction
/// set and confirmation codes) plus the sizes and datasheet figures of protocol.md §5.2 and §7.
public struct SimulatorProfile: Sendable, Equatable {
    /// Short name used on the command line: `r307`, `as608`, `r503`.
    public var name: String
    public var family: ModuleFamily
    public var capacity: Int
    /// Bytes of one feature (char) file made by Img2Tz.
    public var charFileSize: Int
    /// Bytes of a stored template (what UpChar returns after RegModel or LoadChar).
    public var templateSize: Int
    public var imageWidth: Int
    public var imageHeight: Int
    /// Feature buffers usable with Img2Tz (2 on ZFM/AS608, 6 on R50x).
    public var featureBuffers: Int
    /// Time from power-on to the boot byte `55` (protocol.md §7).
    public var bootMilliseconds: Int
    /// GenImg with a finger on the sensor.
    public var captureMilliseconds: Int
    /// Img2Tz.
    public var extractMilliseconds: Int
    /// Search: fixed part plus a cost per template actually compared.
    public var searchBaseMilliseconds: Int
    public var searchMicrosecondsPerTemplate: Int
    /// Store, DeletChar, Empty, SetPwd, SetAdder, SetSysPara, WriteNotepad.
    public var flashWriteMilliseconds: Int
    /// What an unsupported instruction gets back: `01` on R30x/AS608, `FC` on R50x.
    public var unsupportedCode: ConfirmationCode

    public var familyProfile: FamilyProfile { family.profile }
    public var imageByteCount: Int { imageWidth * imageHeight / 2 }

    /// Grow R307: 1000 slots, 512-byte templates, 256 × 288 image; "< 0.3–0.5 s" capture and
    /// "< 1 s at 1:1000" search.
    public static let r307 = SimulatorProfile(
        name: "r307", family: .r30x, capacity: 1000, charFileSize: 256, templateSize: 512,
        imageWidth: 256, imageHeight: 288, featureBuffers: 2, bootMilliseconds: 200,
        captureMilliseconds: 300, extractMilliseconds: 250, searchBaseMilliseconds: 10,
        searchMicrosecondsPerTemplate: 900, flashWriteMilliseconds: 40, unsupportedCode: .packetError)

    /// SynoChip AS608: 300 slots, 0x50–0x56 extras, boot byte after ≈ 300 ms, "< 1 s at 1:500".
    public static let as608 = SimulatorProfile(
        name: "as608", family: .as608, capacity: 300, charFileSize: 256, templateSize: 512,
        imageWidth: 256, imageHeight: 288, featureBuffers: 2, bootMilliseconds: 300,
        captureMilliseconds: 450, extractMilliseconds: 300, searchBaseMilliseconds: 10,
        searchMicrosecondsPerTemplate: 1800, flashWriteMilliseconds: 40, unsupportedCode: .packetError)

    /// Grow R503: 200 slots, 1536-byte templates, 192 × 192 image, aura LED, product info,
    /// "1:N < 10 ms per fingerprint", boot ≤ 50 ms.
    public static let r503 = SimulatorProfile(
        name: "r503", family: .r50x, capacity: 200, charFileSize: 512, templateSize: 1536,
        imageWidth: 192, imageHeight: 192, featureBuffers: 6, bootMilliseconds: 50,
        captureMilliseconds: 180, extractMilliseconds: 350, searchBaseMilliseconds: 5,
        searchMicrosecondsPerTemplate: 8000, flashWriteMilliseconds: 30, unsupportedCode: .unsupported)

    public static let all: [SimulatorProfile] = [.r307, .as608, .r503]

    public static func named(_ name: String) -> SimulatorProfile? {
        all.first { $0.name == name.lowercased() }
    }

    /// What ReadProdInfo (R50x) reports.
    public var productInfo: ProductInfo {
        ProductInfo(model: name.uppercased(), batch: "SIM1", serial: "00000001", hardwareMajor: 1,
                    hardwareMinor: 2, sensorModel: "FPMSIM", imageWidth: imageWidth,
                    imageHeight: imageHeight, templateSize: templateSize, capacity: capacity)
    }
}
