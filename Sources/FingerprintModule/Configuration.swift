import FingerprintProtocol

/// Configuration changes that need the link re-checked afterwards (protocol.md §4.3): the module
/// acks with the old configuration and may apply the change now or only after a power cycle.
extension FingerprintModule {
    /// SetSysPara 4, then re-probe: the new rate first, then the old one. The result says which
    /// answered; `pendingPowerCycle` means the module keeps the old rate until re-powered
    /// (then call `reconnect(preferring: [baud])`).
    @discardableResult
    public func setBaudRate(_ baud: Int) throws(ModuleError) -> BaudChange {
        guard let multiplier = FingerprintProtocol.BaudRate.multiplier(for: baud),
              profile.baudMultipliers.contains(multiplier) else {
            let allowed = profile.baudMultipliers.map { String($0 * 9600) }.joined(separator: ", ")
            throw .invalidArgument("\(baud) baud is not allowed for \(profile.displayName); use one of \(allowed).")
        }
        let oldRate = transport.baudRate
        try performExpectingSuccess(.setSysPara(.baudRate, value: UInt8(multiplier)))
        var tried: [Int] = []
        for rate in [baud, oldRate] where !tried.contains(rate) {
            tried.append(rate)
            do throws(ModuleError) {
                try setTransportBaudRate(rate)
                try runOpeningSequence(handshakeAttempts: 2)
                answeredBaudRate = rate
                return BaudChange(requested: baud, answeredAt: rate)
            } catch let error where error.isSilence {
                continue
            }
        }
        throw .noAnswer(port: transport.portName, triedBaudRates: tried)
    }

    /// SetSysPara 6 (32/64/128/256 bytes), then ReadSysPara again so transfers use what the
    /// module reports, not what was asked for.
    public func setPacketSize(_ size: PacketSize) throws(ModuleError) {
        try setSystemParameter(.packetSize, value: size.code)
    }

    /// SetSysPara 5: match threshold 1 (lenient) … 5 (strict), then ReadSysPara again.
    public func setSecurityLevel(_ level: Int) throws(ModuleError) {
        guard (1...5).contains(level) else { throw .invalidArgument("Security level must be 1 to 5, got \(level).") }
        try setSystemParameter(.securityLevel, value: UInt8(level))
    }
}
