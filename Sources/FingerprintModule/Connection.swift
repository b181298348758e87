import FingerprintProtocol
import Posix
import SerialPort

/// Opening a module: boot byte, handshake, password, family, parameters (protocol.md §9 #2, #4, #12).
extension FingerprintModule {
    /// Opens `port` and connects. When the module is silent at `baudRate` (default 57600) the
    /// other standard rates are probed in `BaudRate.probeOrder`; `answeredBaudRate` says which
    /// one answered.
    /// `probeObserver` is called before each baud rate is tried (rate, its number, how many
    /// there are), so a caller can show progress while a silent port costs ~2 s per rate.
    /// `probeBaudRates` false tries `baudRate` only: quick, for trying several credentials
    /// (the opener does, to tell a reset module from a silent one in about a second).
    public static func open(port: String, baudRate: Int? = nil, address: UInt32 = Frame.defaultAddress,
                            password: UInt32 = 0, family: ModuleFamily? = nil,
                            timeouts: CommandTimeouts = CommandTimeouts(),
                            probeBaudRates: Bool = true,
                            probeObserver: ((_ rate: Int, _ number: Int, _ count: Int) -> Void)? = nil) throws(ModuleError) -> FingerprintModule {
        let firstRate = baudRate ?? FingerprintProtocol.BaudRate.probeOrder[0]
        let serial: SerialPort
        do { serial = try SerialPort.open(path: port, baudRate: firstRate) } catch { throw .transport(error) }
        let module = FingerprintModule(transport: serial, address: address, password: password, family: family)
        module.timeouts = timeouts
        module.probeObserver = probeObserver
        do {
            if probeBaudRates { try module.reconnect() } else { try module.connect() }
        } catch {
            serial.close()
            throw error
        }
        return module
    }

    /// The opening sequence at the transport's current rate: wait for the boot byte (or
    /// `timeouts.bootWait`), handshake (3 tries), VfyPwd when a password is set, detect the
    /// family unless given, read and cache ReadSysPara and (R50x) ReadProdInfo.
    public func connect() throws(ModuleError) {
        try waitForBootByte(timeouts.bootWait)
        try runOpeningSequence(handshakeAttempts: 3)
        answeredBaudRate = transport.baudRate
    }

    /// Connects at the current rate, else probes the other standard rates (for use after a
    /// power cycle or a baud change). Returns the rate that answered.
    @discardableResult
    public func reconnect(preferring preferred: [Int] = []) throws(ModuleError) -> Int {
        var rates = preferred.isEmpty ? [transport.baudRate] : preferred
        for rate in FingerprintProtocol.BaudRate.probeOrder where !rates.contains(rate) { rates.append(rate) }
        var first = true
        for (number, rate) in rates.enumerated() {
            probeObserver?(rate, number + 1, rates.count)
            do throws(ModuleError) {
                if rate != transport.baudRate {
                    try setTransportBaudRate(rate)
                }
                if first { try waitForBootByte(timeouts.bootWait) }
                try runOpeningSequence(handshakeAttempts: first ? 3 : 2)
                answeredBaudRate = rate
                return rate
            } catch let error where error.isSilence {
                first = false
                continue
            }
        }
        throw .noAnswer(port: transport.portName, triedBaudRates: rates)
    }

    /// Sends the family's handshake (ReadSysPara when it has none, or while the family is
    /// unknown). Any ack counts as alive: a module that wants its password still answers.
    public func handshake() throws(ModuleError) {
        let (command, options) = handshakeCommand()
        _ = try perform(command, options)
    }

    /// Waits up to `limit` for the boot byte 0x55, ignoring the 0x00 glitch of a rising RX line.
    /// Returns early when it comes; silence is fine (the module may have booted long ago).
    func waitForBootByte(_ limit: Duration) throws(ModuleError) {
        let deadline = now() + limit
        while now() < deadline {
            let bytes: [UInt8]
            do { bytes = try transport.receive(maxCount: 64, deadline: deadline) } catch { throw .transport(error) }
            if bytes.contains(0x55) {
                bootByteSeen = true
                return
            }
        }
    }

    func rerunOpeningSequence() throws(ModuleError) {
        try runOpeningSequence(handshakeAttempts: 2)
    }

    func runOpeningSequence(handshakeAttempts: Int) throws(ModuleError) {
        inOpeningSequence = true
        defer { inOpeningSequence = false }
        try handshake(attempts: handshakeAttempts)
        if password != 0 {
            let ack = try perform(.verifyPassword(password), ExchangeOptions(checkFamily: false))
            guard ack.code == .success else { throw moduleError(.verifyPassword, ack.code) }
        }
        if family == nil { family = detectFamily() }
        try refreshSystemParameters()
        if profile.hasProductInfo, productInfo == nil {
            productInfo = try? readProductInfo()
        }
        if let size = productInfo?.templateSize, size > 0 { templateSize = size }
    }

    private func handshakeCommand() -> (Command, ExchangeOptions) {
        var options = ExchangeOptions(checkFamily: false, retry: false, deadline: timeouts.probe)
        options.recover = false
        switch family?.profile.handshake {
        case .some(.handshake): return (.handshake, options)
        case .some(.getEcho): return (.getEcho, options)
        case .some(.synoHandshake): return (.synoHandshake, options)
        default:
            // ReadSysPara is answered in milliseconds like any handshake: the probe deadline,
            // so a module that ignores our address (reset, foreign) is known silent quickly.
            return (.readSysPara, options)
        }
    }

    private func handshake(attempts: Int) throws(ModuleError) {
        var attempt = 0
        while true {
            do {
                try handshake()
                return
            } catch {
                attempt += 1
                guard attempt < attempts, error.isSilence else { throw error }
                try? flushInput()
                waitForBootByteQuietly(timeouts.handshakeRetryGap)
            }
        }
    }

    private func waitForBootByteQuietly(_ limit: Duration) {
        try? waitForBootByte(limit)
    }

    /// Family auto-detection, in this order (each probe with the short probe deadline):
    /// 1. Grow HandShake 0x40 answered `00` → R50x (0x40 exists nowhere else);
    /// 2. AS608 GetEcho 0x53 answered `55` → AS608/ZFM-60/70;
    /// 3. otherwise R30x/ZFM, the common core every module speaks.
    /// SynoChip/HLK is never guessed: its handshake 0x35 would drive an R50x aura LED, so it
    /// must be forced (`family: .synochip`).
    func detectFamily() -> ModuleFamily {
        let options = ExchangeOptions(checkFamily: false, retry: false, deadline: timeouts.probe, recover: false)
        if let ack = try? perform(.handshake, options), ack.code == .success { return .r50x }
        if let ack = try? perform(.getEcho, options), ack.code == .echoAlive { return .as608 }
        return .r30x
    }
}
