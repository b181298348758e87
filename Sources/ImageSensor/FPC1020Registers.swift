/// The FPC1020's SPI register map and commands, as far as public sources give them (see
/// docs/fpc1020.md for the sources and what is unverified). Every register access is one
/// message: the address byte, then the data, most significant byte first.
enum FPC1020Register: UInt8, Sendable {
    case status = 0x14                  // RO, 1 byte
    case readInterrupt = 0x18           // RO, 1 byte
    case readInterruptWithClear = 0x1C  // RO, 1 byte
    case readErrorWithClear = 0x38      // RO, 1 byte
    case imageCaptureSize = 0x54        // RW, 4 bytes: first row, rows, first column, columns
    case imageSetup = 0x5C              // RW, 1 byte
    case samplePixelDelay = 0x68        // RW, 8 bytes
    case pixelResetDelay = 0x6C         // RW, 1 byte
    case fingerDriveConfig = 0x8C       // RW, 1 byte
    case fingerDriveDelay = 0x90        // RW, 1 byte
    case adcShiftGain = 0xA0            // RW, 2 bytes
    case pixelControl = 0xA8            // RW, 2 bytes
    case fingerPresentStatus = 0xD4     // RO, 2 bytes
    case fingerDetectThreshold = 0xD8   // RW, 1 byte
    case fingerDetectCounter = 0xDC     // RW, 2 bytes
    case hardwareID = 0xFC              // RO, 2 bytes
}

/// One-byte commands (no data follows, except the image read's dummy byte).
enum FPC1020Command: UInt8, Sendable {
    case fingerPresentQuery = 0x20
    case waitForFingerPresent = 0x24
    case activateSleep = 0x28
    case activateDeepSleep = 0x2C
    case activateIdle = 0x34
    case captureImage = 0xC0
    /// Followed by one dummy byte, then the image streams out of the FIFO.
    case readImage = 0xC4
    case softReset = 0xF8
}

/// Bits of the interrupt register.
struct FPC1020Interrupt: OptionSet, Sendable {
    let rawValue: UInt8
    static let fingerDown = FPC1020Interrupt(rawValue: 0x01)
    static let error = FPC1020Interrupt(rawValue: 0x04)
    static let imageDataAvailable = FPC1020Interrupt(rawValue: 0x20)
    static let commandDone = FPC1020Interrupt(rawValue: 0x80)
    /// All bits set: the power-on ("reboot") value read once after every reset.
    static let powerOn = FPC1020Interrupt(rawValue: 0xFF)
}

/// The hardware ids in Fingerprint Cards' driver table: only the FPC1020A is supported here;
/// the others are named so a wrong sensor is reported as what it is.
enum FPC1020Chip {
    static let fpc1020A: UInt16 = 0x020A
    static let width = 192
    static let height = 192
    static let dotsPerInch = 508
    /// The vendor table's limit for the FPC1020A.
    static let maxSpeedHz: UInt32 = 8_000_000

    static let otherChips: [UInt16: String] = [
        0x021A: "FPC1021A (160×160)", 0x021B: "FPC1021B (160×160)", 0x021F: "FPC1021F (160×160)",
        0x150A: "FPC1150A (208×80)", 0x150B: "FPC1150B (208×80)", 0x150F: "FPC1150F (208×80)",
    ]
}
