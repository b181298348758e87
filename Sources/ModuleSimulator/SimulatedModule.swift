import FingerprintProtocol

/// A simulated fingerprint module as a pure state machine: frames in, reply plans out. No I/O,
/// no clock — `ModuleSimulatorServer` puts it on a pseudo-terminal.
///
/// It holds what a real module holds: the flash (library, parameters, password, address,
/// notepad), the volatile buffers (image, feature buffers, R503 model buffer), the
/// password-verified flag, and the sensor with whatever finger is on it.
public struct SimulatedModule: Sendable {
    public let profile: SimulatorProfile
    public var timing: TimingModel
    public internal(set) var flash: ModuleFlash
    public var sensor = Sensor()
    /// Which template a Search answers and how long it takes (see `SearchModel`).
    public var searchModel: SearchModel
    /// Incremented on every change of `flash`, so the server knows when to save it.
    public private(set) var flashGeneration = 0

    // Volatile state, cleared by a power cycle.
    public internal(set) var passwordVerified = false
    /// The baud multiplier in use now (a SetSysPara change waits for the next power-up).
    public internal(set) var activeBaudMultiplier: Int
    var image: ImageBuffer?
    var charBuffers: [[UInt8]?]
    /// R50x: the template buffer that Store/UpChar use and RegModel/LoadChar/DownChar fill.
    var modelBuffer: [UInt8]?
    /// Buffer of the latest Img2Tz; R503 forgets it on GenImg (its "feature buffer wipe").
    var latestExtracted: Int?
    var lastMatchSucceeded = false
    var download: PendingDownload?
    public internal(set) var ledOn = false
    public internal(set) var aura: [UInt8] = []
    var random: SeededRandom
    var captureCounter: UInt64 = 0

    struct ImageBuffer: Sendable {
        var placement: Placement?
        /// Features of the capture; nil for an image the module cannot read (a foreign DownImage).
        var minutiae: [Minutia]?
        var quality: UInt8
        /// Packed 4-bit pixels when the image came from the host.
        var downloaded: [UInt8]?
        var seed: UInt64
    }

    struct PendingDownload: Sendable {
        enum Target: Sendable { case charBuffer(Int), image }
        var target: Target
        var received: [UInt8] = []
        var limit: Int
    }

    public init(profile: SimulatorProfile, timing: TimingMode = .instant, flash: ModuleFlash? = nil, seed: UInt64 = 1,
                searchModel: SearchModel = .bestMatch) {
        self.profile = profile
        self.searchModel = searchModel
        self.timing = TimingModel(profile: profile, mode: timing)
        var initial = flash ?? ModuleFlash()
        if flash == nil { initial.baudMultiplier = 6 }
        self.flash = initial
        activeBaudMultiplier = initial.baudMultiplier
        charBuffers = Array(repeating: nil, count: profile.featureBuffers)
        random = SeededRandom(seed: seed)
    }

    // MARK: Facts for the server and tests

    public var address: UInt32 { flash.address }
    /// The baud rate the module listens and talks at right now.
    public var activeBaudRate: Int { 9600 * activeBaudMultiplier }
    public var packetSize: Int { flash.packetSize }
    /// Slots holding a template, in order.
    public var occupiedSlots: [Int] { flash.library.keys.sorted() }
    public func template(at slot: Int) -> [UInt8]? { flash.library[slot] }
    /// A transfer from the host is in progress (data packets expected).
    public var isReceivingData: Bool { download != nil }

    /// Sets password, address or parameters before start (`--password`, `--address`).
    public mutating func configure(_ change: (inout ModuleFlash) -> Void) {
        change(&flash)
        activeBaudMultiplier = flash.baudMultiplier
        flashGeneration += 1
    }

    /// Power off and on: volatile state is lost, a stored baud change takes effect, and the
    /// module announces itself with `55` (optionally after a glitch `00` from the RX line rising).
    public mutating func powerCycle(glitch: Bool = false) -> ReplyPlan {
        resetVolatileState()
        return ReplyPlan(segments: [.init(delay: timing.bootDuration(), frames: [], trailingBytes: glitch ? [0x00, 0x55] : [0x55])])
    }

    mutating func resetVolatileState() {
        passwordVerified = false
        activeBaudMultiplier = flash.baudMultiplier
        image = nil
        charBuffers = Array(repeating: nil, count: profile.featureBuffers)
        modelBuffer = nil
        latestExtracted = nil
        lastMatchSucceeded = false
        download = nil
        ledOn = false
        aura = []
    }

    /// The host broke a download (a corrupted or misplaced packet): the module drops it.
    public mutating func abortDownload() { download = nil }

    mutating func flashChanged() { flashGeneration += 1 }

    // MARK: Frames in, replies out

    /// Handles one received frame. Returns nil when the module stays silent: a frame for
    /// another address, a data packet of a download (never acknowledged), or a stray packet.
    public mutating func handle(frame: Frame) -> ReplyPlan? {
        guard frame.address == flash.address else { return nil }
        switch frame.packetID {
        case .data, .end:
            receiveData(frame)
            return nil
        case .acknowledge:
            return nil
        case .command:
            // A command in the middle of a download ends the download.
            download = nil
            guard let command = Command(content: frame.content) else { return nil }
            return execute(command)
        }
    }

    mutating func execute(_ command: Command) -> ReplyPlan {
        let code = command.instruction.rawValue
        guard profile.familyProfile.supports(command.instruction) else {
            return ack(profile.unsupportedCode, for: command)
        }
        if flash.password != 0 && !passwordVerified && command.instruction != .verifyPassword {
            return ack(.passwordRequired, for: command)
        }
        switch code {
        case 0x01, 0x28, 0x52: return captureImage(command)
        case 0x02: return extractFeatures(command)
        case 0x03: return match(command)
        case 0x04, 0x1B, 0x56: return search(command)
        case 0x05: return registerModel(command)
        case 0x06: return store(command)
        case 0x07: return loadChar(command)
        case 0x08: return uploadChar(command)
        case 0x09: return downloadChar(command)
        case 0x0A: return uploadImage(command)
        case 0x0B: return downloadImage(command)
        case 0x0C: return deleteTemplates(command)
        case 0x0D: return emptyLibrary(command)
        case 0x0E: return setSystemParameter(command)
        case 0x0F: return readSystemParameters(command)
        case 0x12: return setPassword(command)
        case 0x13: return verifyPassword(command)
        case 0x14: return randomCode(command)
        case 0x15: return setAddress(command)
        case 0x16: return readInformationPage(command)
        case 0x18: return writeNotepad(command)
        case 0x19: return readNotepad(command)
        case 0x1D: return ack(.success, payload: UInt16(flash.library.count).bigEndianByteArray, for: command)
        case 0x1F: return readIndexTable(command)
        case 0x35: return configureAura(command)
        case 0x39: return ack(.success, payload: asciiField("SIMALG-\(profile.name.uppercased())-1.0"), for: command)
        case 0x3A: return ack(.success, payload: asciiField("SIMFW-\(profile.name.uppercased())-1.2"), for: command)
        case 0x3C: return ack(.success, payload: profile.productInfo.encoded(), for: command)
        case 0x3D: return softReset(command)
        case 0x50, 0x51:
            ledOn = code == 0x50
            return ack(.success, for: command)
        case 0x53: return ack(.echoAlive, for: command)
        case 0x54: return autoLogin(command)
        case 0x55: return autoSearch(command)
        case 0x32 where profile.family == .r50x: return autoIdentify(command)
        // Cancel, PortControl, CheckSensor, HandShake: nothing to do but say yes.
        case 0x17, 0x30, 0x36, 0x40: return ack(.success, for: command)
        default:
            // In the family's list but not simulated (AutoEnroll, SynoChip AutoIdentify): say so honestly.
            return ack(profile.unsupportedCode, for: command)
        }
    }

    // MARK: Reply helpers

    func ack(_ code: ConfirmationCode, payload: [UInt8] = [], for command: Command,
             delay: Duration? = nil, from address: UInt32? = nil) -> ReplyPlan {
        let frame = Acknowledgement(code: code, payload: payload).frame(address: address ?? flash.address)
        let wait = delay ?? timing.moduleDuration(for: command, state: TimingState(fingerPresent: sensor.fingerPresent))
        return ReplyPlan(segments: [.init(delay: wait, frames: [frame])], instruction: command.instruction)
    }

    /// The ack followed by data packets of the configured size (upload flows, protocol.md §5.1).
    func ackWithData(_ payload: [UInt8], for command: Command) -> ReplyPlan {
        var plan = ack(.success, for: command)
        plan.segments[0].frames += DataTransfer.frames(for: payload, packetSize: flash.packetSize, address: flash.address)
        return plan
    }

    func asciiField(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8.prefix(32))
        return bytes + [UInt8](repeating: 0, count: 32 - bytes.count)
    }

    /// Buffer index (0-based) for a BufferID byte: ZFM/AS608 treat anything but 1 as buffer 2;
    /// R50x has buffers 1…6.
    func bufferIndex(_ id: UInt8) -> Int {
        if profile.featureBuffers > 2 { return (1...profile.featureBuffers).contains(Int(id)) ? Int(id) - 1 : 0 }
        return id == 1 ? 0 : 1
    }
}
