/// A command: an instruction code and its parameter bytes (protocol.md §2). Builders below give
/// every instruction its exact layout; `frame(address:)` wraps it for the wire.
public struct Command: Equatable, Sendable, CustomStringConvertible {
    public var instruction: Instruction
    public var parameters: [UInt8]

    public init(_ instruction: Instruction, _ parameters: [UInt8] = []) {
        self.instruction = instruction
        self.parameters = parameters
    }

    /// Reads a command back from a received frame's content (the simulator's side).
    public init?(content: [UInt8]) {
        guard let code = content.first else { return nil }
        self.init(Instruction(rawValue: code), Array(content.dropFirst()))
    }

    public var content: [UInt8] { [instruction.rawValue] + parameters }

    public func frame(address: UInt32 = Frame.defaultAddress) -> Frame {
        Frame(address: address, packetID: .command, content: content)
    }

    public var description: String { instruction.description + (parameters.isEmpty ? "" : " [" + parameters.hexString + "]") }

    // MARK: Core set

    public static let genImg = Command(.genImg)
    public static func img2Tz(buffer: UInt8) -> Command { Command(.img2Tz, [buffer]) }
    public static let match = Command(.match)
    public static func search(buffer: UInt8, start: Int, count: Int) -> Command {
        Command(.search, [buffer] + UInt16(clamping: start).bigEndianBytes + UInt16(clamping: count).bigEndianBytes)
    }
    public static func highSpeedSearch(buffer: UInt8, start: Int, count: Int) -> Command {
        Command(.highSpeedSearch, [buffer] + UInt16(clamping: start).bigEndianBytes + UInt16(clamping: count).bigEndianBytes)
    }
    public static let regModel = Command(.regModel)
    public static func store(buffer: UInt8, slot: Int) -> Command {
        Command(.store, [buffer] + UInt16(clamping: slot).bigEndianBytes)
    }
    public static func loadChar(buffer: UInt8, slot: Int) -> Command {
        Command(.loadChar, [buffer] + UInt16(clamping: slot).bigEndianBytes)
    }
    public static func upChar(buffer: UInt8) -> Command { Command(.upChar, [buffer]) }
    public static func downChar(buffer: UInt8) -> Command { Command(.downChar, [buffer]) }
    public static let upImage = Command(.upImage)
    public static let downImage = Command(.downImage)
    public static func deleteChar(start: Int, count: Int) -> Command {
        Command(.deleteChar, UInt16(clamping: start).bigEndianBytes + UInt16(clamping: count).bigEndianBytes)
    }
    public static let empty = Command(.empty)
    public static func setSysPara(_ parameter: SystemParameter, value: UInt8) -> Command {
        Command(.setSysPara, [parameter.rawValue, value])
    }
    public static let readSysPara = Command(.readSysPara)
    public static func setPassword(_ password: UInt32) -> Command { Command(.setPassword, password.bigEndianBytes) }
    public static func verifyPassword(_ password: UInt32) -> Command { Command(.verifyPassword, password.bigEndianBytes) }
    public static let getRandomCode = Command(.getRandomCode)
    public static func setAddress(_ address: UInt32) -> Command { Command(.setAddress, address.bigEndianBytes) }
    public static let templateCount = Command(.templateCount)
    public static func readIndexTable(page: Int) -> Command { Command(.readIndexTable, [UInt8(clamping: page)]) }

    // MARK: Extended set

    public static let readInfPage = Command(.readInfPage)
    public static func writeNotepad(page: Int, data: [UInt8]) -> Command {
        let padded = Array(data.prefix(32)) + [UInt8](repeating: 0, count: max(0, 32 - data.count))
        return Command(.writeNotepad, [UInt8(clamping: page)] + padded)
    }
    public static func readNotepad(page: Int) -> Command { Command(.readNotepad, [UInt8(clamping: page)]) }
    public static let getImageEx = Command(.getImageEx)
    public static let cancel = Command(.cancel)
    public static let checkSensor = Command(.checkSensor)
    public static let getAlgVer = Command(.getAlgVer)
    public static let getFwVer = Command(.getFwVer)
    public static let readProductInfo = Command(.readProductInfo)
    public static let softReset = Command(.softReset)
    public static let handshake = Command(.handshake)
    public static let synoHandshake = Command(.synoHandshake)
    public static let sleep = Command(.sleep)
    public static let getChipSN = Command(.getChipSN, [0x00])
    public static func auraLed(_ mode: AuraMode, speed: UInt8, color: AuraColor, count: UInt8) -> Command {
        Command(.auraLedConfig, [mode.rawValue, speed, color.rawValue, count])
    }
    public static let ledOn = Command(.ledOn)
    public static let ledOff = Command(.ledOff)
    public static let getImageFree = Command(.getImageFree)
    public static let getEcho = Command(.getEcho)
    /// AS608 AutoSearch: `wait` in ~65 ms units (54 ≈ 3.5 s), then a range.
    public static func autoSearch(wait: UInt8, start: Int, count: Int) -> Command {
        Command(.autoSearch, [wait] + UInt16(clamping: start).bigEndianBytes + UInt16(clamping: count).bigEndianBytes)
    }
    /// AS608 AutoLogin: wait, captures (2 or 3), slot, allow-duplicate flag.
    public static func autoLogin(wait: UInt8, captures: UInt8, slot: Int, allowDuplicate: Bool) -> Command {
        Command(.autoLogin, [wait, captures] + UInt16(clamping: slot).bigEndianBytes + [allowDuplicate ? 1 : 0])
    }
    /// Grow R503 AutoEnroll (§2.3): 1-byte slot (≥ 0xC8 = module picks), then four flags.
    public static func growAutoEnroll(slot: UInt8, allowOverwrite: Bool, allowDuplicate: Bool,
                                      reportSteps: Bool, requireLift: Bool) -> Command {
        Command(.autoEnroll, [slot, allowOverwrite ? 1 : 0, allowDuplicate ? 1 : 0, reportSteps ? 1 : 0, requireLift ? 1 : 0])
    }
    /// Grow R503 AutoIdentify (§2.3): security level, 1-byte start and count, report flag, tolerated failures.
    public static func growAutoIdentify(securityLevel: UInt8, start: UInt8, count: UInt8,
                                        reportSteps: Bool, attempts: UInt8) -> Command {
        Command(.autoIdentify, [securityLevel, start, count, reportSteps ? 1 : 0, attempts])
    }
}

/// AuraLedConfig control byte (protocol.md §2.5).
public enum AuraMode: UInt8, Sendable, CaseIterable {
    case breathing = 1, flashing = 2, on = 3, off = 4, fadeIn = 5, fadeOut = 6
}

/// AuraLedConfig colour byte; 4–7 exist from R503 v1.2.
public enum AuraColor: UInt8, Sendable, CaseIterable {
    case red = 1, blue = 2, purple = 3, green = 4, yellow = 5, cyan = 6, white = 7
}

/// Image and character buffers.
public enum CharBuffer {
    public static let one: UInt8 = 1
    public static let two: UInt8 = 2
}
