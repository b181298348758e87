import FingerprintProtocol

/// Family extras (protocol.md §2.2, §2.5). Each is refused with `.unsupported` before anything
/// is sent when the family profile lacks it.
extension FingerprintModule {
    /// ReadProdInfo (R50x): model, serial, image geometry, template size, capacity. Cached.
    @discardableResult
    public func readProductInfo() throws(ModuleError) -> ProductInfo {
        let ack = try performExpectingSuccess(.readProductInfo)
        do {
            let info = try ProductInfo(bytes: ack.payload)
            productInfo = info
            return info
        } catch {
            throw .unexpectedPacket(.readProductInfo, error.description)
        }
    }

    /// ReadNotepad: 32 bytes of user flash, page 0…15.
    public func readNotepad(page: Int) throws(ModuleError) -> [UInt8] {
        try checkNotepadPage(page)
        return try performExpectingSuccess(.readNotepad(page: page)).payload
    }

    /// WriteNotepad: replaces page `page` (0…15) with `data` (≤ 32 bytes, zero-padded).
    public func writeNotepad(page: Int, data: [UInt8]) throws(ModuleError) {
        try checkNotepadPage(page)
        guard data.count <= 32 else { throw .invalidArgument("A notepad page holds 32 bytes, got \(data.count).") }
        try performExpectingSuccess(.writeNotepad(page: page, data: data))
    }

    private func checkNotepadPage(_ page: Int) throws(ModuleError) {
        guard (0..<16).contains(page) else { throw .invalidArgument("Notepad pages are 0 to 15, got \(page).") }
    }

    /// SoftRst (R50x): reset the module, wait for its boot byte, then run the opening sequence
    /// again (password, parameters). Returns whether the boot byte was seen.
    @discardableResult
    public func softReset() throws(ModuleError) -> Bool {
        try performExpectingSuccess(.softReset)
        // The boot byte may have arrived in the same read as the 12-byte ack.
        let seenWithAck = receivedHead.count > 12 && receivedHead[12...].contains(0x55)
        decoder.reset()
        bootByteSeen = seenWithAck
        if !seenWithAck { try waitForBootByte(timeouts.ordinary) }
        let seen = bootByteSeen
        try runOpeningSequence(handshakeAttempts: 3)
        return seen
    }

    /// AuraLedConfig (R50x ring LED).
    public func setAuraLED(_ mode: AuraMode, color: AuraColor, speed: UInt8 = 0x80, count: UInt8 = 0) throws(ModuleError) {
        try performExpectingSuccess(.auraLed(mode, speed: speed, color: color, count: count))
    }

    /// OpenLED / CloseLED (AS608, ZFM-60/70).
    public func setLED(on: Bool) throws(ModuleError) {
        try performExpectingSuccess(on ? .ledOn : .ledOff)
    }

    /// GetImageEx (R50x): like GenImg, but a poor image is `.failed(07)` instead of `.captured`.
    public func captureImageChecked() throws(ModuleError) -> CaptureResult {
        try capture(.getImageEx)
    }

    /// GetImageFree (AS608): capture without switching the light on.
    public func captureImageWithoutLight() throws(ModuleError) -> CaptureResult {
        try capture(.getImageFree)
    }

    /// CheckSensor: true when the sensor is fine (`00`), false on a sensor fault (`29`).
    public func checkSensor() throws(ModuleError) -> Bool {
        let ack = try perform(.checkSensor)
        switch ack.code.rawValue {
        case 0x00: return true
        case 0x29: return false
        default: throw moduleError(.checkSensor, ack.code)
        }
    }

    /// GetAlgVer (R50x): the algorithm library version string.
    public func algorithmVersion() throws(ModuleError) -> String {
        Self.ascii(try performExpectingSuccess(.getAlgVer).payload)
    }

    /// GetFwVer (R50x): the firmware version string.
    public func firmwareVersion() throws(ModuleError) -> String {
        Self.ascii(try performExpectingSuccess(.getFwVer).payload)
    }

    /// Cancel: abort a running AutoEnroll/AutoIdentify.
    public func cancel() throws(ModuleError) {
        try performExpectingSuccess(.cancel)
    }

    static func ascii(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.prefix { $0 != 0 }.filter { $0 >= 0x20 && $0 < 0x7F }, as: UTF8.self)
    }
}
