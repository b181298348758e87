/// The four families of module firmware (protocol.md §2.4, §3, §8). They share the core
/// instruction set and disagree about codes ≥ 0x30, confirmation codes ≥ 0x1B, sizes, LEDs
/// and touch-line polarity. Code asks the profile; it does not branch on model names.
public enum ModuleFamily: String, CaseIterable, Codable, Sendable, CustomStringConvertible {
    /// Grow R30x (R305/R307/R308), ZhianTec ZFM-20, FPM10A, Adafruit 751.
    case r30x
    /// SynoChip AS608, JM-101, ZFM-60/70 ("V13" manual).
    case as608
    /// Grow R50x (R502-A, R503, R503-S).
    case r50x
    /// SynoChip PS_ chip-level set, HLK ZW101, FPM383.
    case synochip

    public var description: String { rawValue }
    public var profile: FamilyProfile { FamilyProfile.of(self) }
}

/// What a family of modules understands and how it behaves.
public struct FamilyProfile: Sendable {
    public var family: ModuleFamily
    public var displayName: String
    /// Instruction codes this family accepts (an unsupported one is refused before sending).
    public var instructions: Set<UInt8>
    /// Meanings of confirmation codes ≥ 0x1B (and the few below it that only some families use).
    public var confirmationMeanings: [UInt8: String]
    /// Typical template size (bytes of UpChar after RegModel); the real size is learned on upload.
    public var templateSize: Int
    public var imageWidth: Int
    public var imageHeight: Int
    /// Baud multipliers N (baud = 9600 × N) the manuals allow.
    public var baudMultipliers: [Int]
    /// The touch/wake-up output is low while a finger is present.
    public var touchActiveLow: Bool
    /// How to ask "are you there?": nil means use ReadSysPara (no dedicated handshake).
    public var handshake: Instruction?
    /// The aura ring (AuraLedConfig 0x35) exists.
    public var hasAuraLED: Bool
    /// LED on/off (0x50/0x51) exists.
    public var hasLEDSwitch: Bool
    /// ReadProdInfo (0x3C) gives model, serial, geometry and template size.
    public var hasProductInfo: Bool
    /// GenImg wipes the extracted feature buffer (R503): never GenImg between Img2Tz and Search.
    public var genImgWipesFeatures: Bool
    /// Number of feature buffers usable with Img2Tz.
    public var featureBuffers: Int

    /// The profile of `family`, built once (the driver asks for it on every command).
    public static func of(_ family: ModuleFamily) -> FamilyProfile {
        switch family {
        case .r30x: r30x
        case .as608: as608
        case .r50x: r50x
        case .synochip: synochip
        }
    }

    private static let r30x = make(.r30x)
    private static let as608 = make(.as608)
    private static let r50x = make(.r50x)
    private static let synochip = make(.synochip)

    private static func make(_ family: ModuleFamily) -> FamilyProfile {
        switch family {
        case .r30x:
            FamilyProfile(family: .r30x, displayName: "Grow R30x / ZFM-20 / FPM10A",
                          instructions: core.union([0x16, 0x17, 0x18, 0x19, 0x1B]),
                          confirmationMeanings: [0x20: "address code error", 0x21: "password must be verified first"],
                          templateSize: 512, imageWidth: 256, imageHeight: 288,
                          baudMultipliers: Array(1...12), touchActiveLow: true, handshake: nil,
                          hasAuraLED: false, hasLEDSwitch: false, hasProductInfo: false,
                          genImgWipesFeatures: false, featureBuffers: 2)
        case .as608:
            FamilyProfile(family: .as608, displayName: "SynoChip AS608 / JM-101 / ZFM-60/70",
                          instructions: core.union([0x18, 0x19, 0x1B, 0x50, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56]),
                          confirmationMeanings: [0x20: "address code error", 0x21: "password must be verified first",
                                                 0x22: "residual fingerprint (finger not lifted)",
                                                 0x23: "no valid template in range",
                                                 0x24: "duplicate enrollment refused",
                                                 0x55: "alive (GetEcho)",
                                                 0x56: "first capture OK", 0x57: "second capture OK"],
                          templateSize: 512, imageWidth: 256, imageHeight: 288,
                          baudMultipliers: Array(1...12), touchActiveLow: false, handshake: .getEcho,
                          hasAuraLED: false, hasLEDSwitch: true, hasProductInfo: false,
                          genImgWipesFeatures: false, featureBuffers: 2)
        case .r50x:
            FamilyProfile(family: .r50x, displayName: "Grow R50x (R502-A, R503)",
                          instructions: core.union([0x16, 0x17, 0x18, 0x19, 0x28, 0x30, 0x31, 0x32, 0x35,
                                                    0x36, 0x39, 0x3A, 0x3C, 0x3D, 0x40]),
                          confirmationMeanings: [0x19: "undefined error", 0x1B: "bad register configuration",
                                                 0x1C: "bad notepad page", 0x1D: "port operation failed",
                                                 0x1F: "library full", 0x20: "address incorrect",
                                                 0x21: "password must be verified first", 0x22: "template is empty",
                                                 0x24: "library is empty", 0x26: "timeout",
                                                 0x27: "fingerprint already exists", 0x29: "sensor hardware error",
                                                 0xFC: "unsupported command", 0xFD: "hardware error",
                                                 0xFE: "command execution failure"],
                          templateSize: 1536, imageWidth: 192, imageHeight: 192,
                          baudMultipliers: [1, 2, 4, 6, 12], touchActiveLow: true, handshake: .handshake,
                          hasAuraLED: true, hasLEDSwitch: false, hasProductInfo: true,
                          genImgWipesFeatures: true, featureBuffers: 6)
        case .synochip:
            FamilyProfile(family: .synochip, displayName: "SynoChip PS_ / HLK ZW101 / FPM383",
                          instructions: core.union([0x16, 0x17, 0x18, 0x19, 0x1B, 0x1C, 0x29, 0x30, 0x31, 0x32,
                                                    0x33, 0x34, 0x35, 0x36, 0x3C]),
                          confirmationMeanings: [0x04: "image too dry or faint", 0x05: "image too wet or blurred",
                                                 0x12: "cannot enter low-power mode", 0x14: "system reset failed",
                                                 0x16: "online upgrade failed",
                                                 0x17: "residual print: finger did not move",
                                                 0x19: "random number failed", 0x1B: "bad register value",
                                                 0x1C: "bad notepad page", 0x1D: "port operation failed",
                                                 0x1E: "auto-enroll failed", 0x1F: "library full",
                                                 0x20: "device address wrong", 0x21: "key/password wrong",
                                                 0x22: "template not empty", 0x23: "template empty",
                                                 0x24: "library empty", 0x25: "wrong enroll count",
                                                 0x26: "timeout", 0x27: "fingerprint already exists",
                                                 0x28: "template related to previous one", 0x29: "sensor check error",
                                                 0x2C: "enroll cancelled", 0x33: "image too small",
                                                 0x34: "image unusable", 0x40: "too few enroll captures",
                                                 0x41: "communication timeout"],
                          templateSize: 512, imageWidth: 256, imageHeight: 288,
                          baudMultipliers: Array(1...12), touchActiveLow: false, handshake: .synoHandshake,
                          hasAuraLED: false, hasLEDSwitch: false, hasProductInfo: false,
                          genImgWipesFeatures: false, featureBuffers: 2)
        }
    }

    /// The core set of §2.1 (0x14 GetRandomCode is absent from the AS608 list but harmless).
    private static let core: Set<UInt8> = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A, 0x0B,
                                           0x0C, 0x0D, 0x0E, 0x0F, 0x12, 0x13, 0x14, 0x15, 0x1D, 0x1F]

    public func supports(_ instruction: Instruction) -> Bool { instructions.contains(instruction.rawValue) }

    /// Image bytes over UART at 4 bits per pixel.
    public var imageByteCount: Int { imageWidth * imageHeight / 2 }
}
