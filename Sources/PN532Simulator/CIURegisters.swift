/// The register file ReadRegister and WriteRegister reach: the contactless interface unit's
/// registers (6301–633F) that libnfc reads before masked writes (TxMode, RxMode, ManualRCV,
/// TxAuto, Control, BitFraming, Status2 …) and any other address a host writes. Addresses
/// never written read their reset value, or 00.
struct CIURegisters: Sendable {
    private var values: [UInt16: UInt8] = CIURegisters.resetValues

    /// Reset values of the CIU, as the PN532 data sheet lists them, for the registers a host
    /// reads before writing: a read-modify-write then keeps the bits it does not mean to change.
    static let resetValues: [UInt16: UInt8] = [
        0x6301: 0x3F,  // Mode
        0x6302: 0x00,  // TxMode
        0x6303: 0x00,  // RxMode
        0x6304: 0x80,  // TxControl
        0x6305: 0x00,  // TxAuto
        0x6306: 0x10,  // TxSel
        0x6307: 0x84,  // RxSel
        0x6308: 0x84,  // RxThreshold
        0x6309: 0x4D,  // Demod
        0x630D: 0x00,  // ManualRCV
        0x6316: 0x48,  // RFCfg
        0x6338: 0x00,  // Status2
        0x633C: 0x10,  // Control
        0x633D: 0x00,  // BitFraming
        0x633E: 0x80,  // Coll
    ]

    subscript(address: UInt16) -> UInt8 {
        get { values[address] ?? 0 }
        set { values[address] = newValue }
    }

    /// Whether CRYPTO1 is on (Status2 bit 3): a host switching it off after a MIFARE session.
    var crypto1On: Bool { self[0x6338] & 0x08 != 0 }
}
