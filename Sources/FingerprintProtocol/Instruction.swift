/// An instruction code (the first content byte of a command frame), protocol.md §2.
///
/// Codes at or above 0x30 collide between families (0x35 is the Grow aura LED and the SynoChip
/// handshake; 0x3C is Grow product info and the HLK RGB LED): the constants below carry the
/// meaning, and `ModuleFamily` says which of them a module understands.
public struct Instruction: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    // The common core (§2.1).
    public static let genImg = Instruction(rawValue: 0x01)
    public static let img2Tz = Instruction(rawValue: 0x02)
    public static let match = Instruction(rawValue: 0x03)
    public static let search = Instruction(rawValue: 0x04)
    public static let regModel = Instruction(rawValue: 0x05)
    public static let store = Instruction(rawValue: 0x06)
    public static let loadChar = Instruction(rawValue: 0x07)
    public static let upChar = Instruction(rawValue: 0x08)
    public static let downChar = Instruction(rawValue: 0x09)
    public static let upImage = Instruction(rawValue: 0x0A)
    public static let downImage = Instruction(rawValue: 0x0B)
    public static let deleteChar = Instruction(rawValue: 0x0C)
    public static let empty = Instruction(rawValue: 0x0D)
    public static let setSysPara = Instruction(rawValue: 0x0E)
    public static let readSysPara = Instruction(rawValue: 0x0F)
    public static let setPassword = Instruction(rawValue: 0x12)
    public static let verifyPassword = Instruction(rawValue: 0x13)
    public static let getRandomCode = Instruction(rawValue: 0x14)
    public static let setAddress = Instruction(rawValue: 0x15)
    public static let templateCount = Instruction(rawValue: 0x1D)
    public static let readIndexTable = Instruction(rawValue: 0x1F)

    // Extended (§2.2).
    public static let readInfPage = Instruction(rawValue: 0x16)
    public static let portControl = Instruction(rawValue: 0x17)
    public static let writeNotepad = Instruction(rawValue: 0x18)
    public static let readNotepad = Instruction(rawValue: 0x19)
    public static let highSpeedSearch = Instruction(rawValue: 0x1B)
    public static let genBinImage = Instruction(rawValue: 0x1C)
    public static let getImageEx = Instruction(rawValue: 0x28)
    public static let getEnrollImage = Instruction(rawValue: 0x29)
    public static let cancel = Instruction(rawValue: 0x30)
    public static let autoEnroll = Instruction(rawValue: 0x31)
    public static let autoIdentify = Instruction(rawValue: 0x32)
    public static let sleep = Instruction(rawValue: 0x33)
    public static let getChipSN = Instruction(rawValue: 0x34)
    /// Grow R50x: AuraLedConfig (4 parameters).
    public static let auraLedConfig = Instruction(rawValue: 0x35)
    /// SynoChip/HLK: PS_HandShake (no parameters) — same code as `auraLedConfig`.
    public static let synoHandshake = Instruction(rawValue: 0x35)
    public static let checkSensor = Instruction(rawValue: 0x36)
    public static let getAlgVer = Instruction(rawValue: 0x39)
    public static let getFwVer = Instruction(rawValue: 0x3A)
    /// Grow R50x: ReadProdInfo (no parameters).
    public static let readProductInfo = Instruction(rawValue: 0x3C)
    /// SynoChip/HLK: RGB/BLN LED control — same code as `readProductInfo`.
    public static let controlBLN = Instruction(rawValue: 0x3C)
    public static let softReset = Instruction(rawValue: 0x3D)
    /// Grow R50x HandShake (`00` = alive).
    public static let handshake = Instruction(rawValue: 0x40)
    public static let ledOn = Instruction(rawValue: 0x50)
    public static let ledOff = Instruction(rawValue: 0x51)
    public static let getImageFree = Instruction(rawValue: 0x52)
    /// AS608/ZFM-60/70 GetEcho: the module answers with confirmation `55`.
    public static let getEcho = Instruction(rawValue: 0x53)
    public static let autoLogin = Instruction(rawValue: 0x54)
    public static let autoSearch = Instruction(rawValue: 0x55)
    public static let searchResBack = Instruction(rawValue: 0x56)

    /// Names of the codes that mean the same on every family.
    private static let commonNames: [UInt8: String] = [
        0x01: "GenImg", 0x02: "Img2Tz", 0x03: "Match", 0x04: "Search", 0x05: "RegModel",
        0x06: "Store", 0x07: "LoadChar", 0x08: "UpChar", 0x09: "DownChar", 0x0A: "UpImage",
        0x0B: "DownImage", 0x0C: "DeletChar", 0x0D: "Empty", 0x0E: "SetSysPara",
        0x0F: "ReadSysPara", 0x12: "SetPwd", 0x13: "VfyPwd", 0x14: "GetRandomCode",
        0x15: "SetAdder", 0x16: "ReadInfPage", 0x17: "PortControl", 0x18: "WriteNotepad",
        0x19: "ReadNotepad", 0x1B: "HighSpeedSearch", 0x1C: "GenBinImage", 0x1D: "TempleteNum",
        0x1F: "ReadIndexTable", 0x28: "GetImageEx", 0x29: "GetEnrollImage", 0x30: "Cancel",
        0x31: "AutoEnroll", 0x32: "AutoIdentify", 0x33: "Sleep", 0x34: "GetChipSN",
        0x36: "CheckSensor", 0x39: "GetAlgVer", 0x3A: "GetFwVer", 0x3D: "SoftRst",
        0x40: "HandShake", 0x50: "OpenLED", 0x51: "CloseLED", 0x52: "GetImageFree",
        0x53: "GetEcho", 0x54: "AutoLogin", 0x55: "AutoSearch", 0x56: "SearchResBack",
    ]

    /// The instruction's name as the given family understands it.
    public func name(in family: ModuleFamily? = nil) -> String {
        switch rawValue {
        case 0x35: family == .synochip ? "HandShake(PS)" : "AuraLedConfig"
        case 0x3C: family == .synochip ? "ControlBLN" : "ReadProdInfo"
        default: Instruction.commonNames[rawValue] ?? "0x" + [rawValue].hexString
        }
    }

    public var description: String { name() }

    /// Looks an instruction up by name (case-insensitive, e.g. "genimg", "ReadSysPara") or hex code.
    public init?(named name: String) {
        let lowered = name.lowercased()
        if let code = UInt8(lowered.hasPrefix("0x") ? String(lowered.dropFirst(2)) : lowered, radix: 16),
           lowered.hasPrefix("0x") || lowered.count <= 2 {
            self.init(rawValue: code)
            return
        }
        let aliases: [String: UInt8] = ["auraledconfig": 0x35, "readprodinfo": 0x3C, "readproductinfo": 0x3C,
                                        "deletechar": 0x0C, "templatenum": 0x1D, "templatecount": 0x1D,
                                        "softreset": 0x3D, "verifypassword": 0x13, "setaddress": 0x15]
        if let code = aliases[lowered] { self.init(rawValue: code); return }
        guard let match = Instruction.commonNames.first(where: { $0.value.lowercased() == lowered }) else { return nil }
        self.init(rawValue: match.key)
    }

    /// Instructions that write the module's flash and need a longer deadline (protocol.md §9 #13).
    public var writesFlash: Bool {
        [0x06, 0x0C, 0x0D, 0x0E, 0x12, 0x15, 0x18].contains(rawValue)
    }

    /// Instructions that change module state, so a lost reply must not be blindly re-sent.
    public var isIdempotent: Bool {
        ![0x01, 0x02, 0x05, 0x06, 0x09, 0x0B, 0x0C, 0x0D, 0x0E, 0x12, 0x15, 0x18, 0x28, 0x29,
          0x31, 0x32, 0x3D, 0x52, 0x54].contains(rawValue)
    }
}
