/// The register values written after every reset, in order. They are the "revision 3"
/// defaults of the public drivers (Unwired Devices' RIOT driver and its sources); the values
/// per silicon revision and per finger condition (dry/wet/normal) differ, and the revision
/// probe those drivers run is not done here: see docs/fpc1020.md ("unverified").
struct FPC1020Setup: Sendable, Equatable {
    struct Write: Sendable, Equatable {
        var register: FPC1020Register
        /// Most significant byte first, as it goes on the wire.
        var bytes: [UInt8]
    }

    var writes: [Write]

    /// The whole 192 × 192 array: first row 0, 192 rows, first column 0, 192 columns.
    static let fullFrame: [UInt8] = [0, UInt8(FPC1020Chip.height), 0, UInt8(FPC1020Chip.width)]

    static let revision3 = FPC1020Setup(writes: [
        Write(register: .samplePixelDelay, bytes: [0x17, 0x17, 0x17, 0x17, 0x23, 0x23, 0x23, 0x23]),
        Write(register: .pixelResetDelay, bytes: [0x0F]),
        Write(register: .fingerDriveDelay, bytes: [0x18]),
        Write(register: .fingerDriveConfig, bytes: [0x02]),
        // ADC shift 13, gain 1 ("normal" finger condition).
        Write(register: .adcShiftGain, bytes: [0x0D, 0x01]),
        Write(register: .pixelControl, bytes: [0x0F, 0x1B]),
        Write(register: .imageSetup, bytes: [0x0B]),
        Write(register: .fingerDetectThreshold, bytes: [0x50]),
        Write(register: .fingerDetectCounter, bytes: [0x00, 0x05]),
        Write(register: .imageCaptureSize, bytes: fullFrame),
    ])
}
