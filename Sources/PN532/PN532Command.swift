/// The PN532 command codes a reader uses (user manual UM0701-02 §7): the code goes first in a
/// host frame's data; the response carries the code plus one.
public enum PN532Command: UInt8, Sendable, CaseIterable {
    case diagnose = 0x00
    case getFirmwareVersion = 0x02
    case getGeneralStatus = 0x04
    case readRegister = 0x06
    case writeRegister = 0x08
    case setParameters = 0x12
    case samConfiguration = 0x14
    case powerDown = 0x16
    case rfConfiguration = 0x32
    case inDataExchange = 0x40
    case inCommunicateThru = 0x42
    case inDeselect = 0x44
    case inListPassiveTarget = 0x4A
    case inRelease = 0x52
    case inSelect = 0x54
    case inAutoPoll = 0x60

    /// The code of this command's response.
    public var responseCode: UInt8 { rawValue &+ 1 }
}

/// The status byte of the In… commands' responses (UM0701-02 §7.1, table 5): 0 is success,
/// the low six bits name an error; bit 6 (MI) says more data follows.
public enum PN532Status: UInt8, Sendable {
    case success = 0x00
    /// The target did not answer in time.
    case timeout = 0x01
    case crcError = 0x02
    case parityError = 0x03
    /// The command is not acceptable in the current context (no target selected).
    case notAcceptable = 0x27
    /// The target was released (removed from the field, or deselected).
    case targetReleased = 0x29
}

/// The baud rate and modulation byte (BrTy) of InListPassiveTarget.
public enum PN532Modulation: UInt8, Sendable {
    /// ISO/IEC 14443 type A (MIFARE, DESFire, NTAG…), the door cards.
    case iso14443A106 = 0x00
    case felica212 = 0x01
    case felica424 = 0x02
    case iso14443B106 = 0x03
    case jewel106 = 0x04
}

/// The RFConfiguration items (CfgItem) libnfc and other hosts set.
public enum PN532RFConfigurationItem: UInt8, Sendable {
    case field = 0x01
    case timings = 0x02
    case maxRetriesCommunication = 0x04
    /// MxRtyATR, MxRtyPSL, MxRtyPassiveActivation: how often InListPassiveTarget tries (FF: forever).
    case maxRetries = 0x05
    case analog106A = 0x0A
    case analog212424 = 0x0B
    case analogB = 0x0C
    case analog212424848 = 0x0D
}
