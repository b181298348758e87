import DoorLock
import FingerprintProtocol
import ModuleSimulator

/// Everything opening a reader takes, as plain values: which reader (a module's port, an SPI
/// sensor, a sensor served on a socket, or a simulator), how to reach it, and where to say what
/// happens meanwhile. The CLI fills it from its options (`Invocation.readerOptions()`, which
/// refuses a malformed value before anything opens); a console fills it from a form.
public struct ReaderOptions: Sendable {
    /// The module's serial port (--port, FPMOD_PORT).
    public var port: String?
    /// The FPC1020's spidev node (--spi, FPMOD_SPI).
    public var spiDevice: String?
    /// The socket of a simulated sensor another process serves (--sensor-socket).
    public var sensorSocket: String?
    /// A simulator instead of hardware (--sim and its options); wins over the three above.
    public var simulator: SimulatorOptions?

    /// Address, password and family of the module: nil means the store's pairing, else the
    /// factory values (address, password) or detection (family).
    public var address: UInt32?
    public var password: UInt32?
    public var family: ModuleFamily?
    /// One baud rate to use; nil probes the usual rates, the factory default first.
    public var baudRate: Int?

    /// The wiring options of a command that has them (`fpmod sensor`); nil for the reader
    /// commands, which take the board preset's wiring.
    public var wiring: SensorWiringOptions?
    /// The configuration file, when one is named or installed and it loads: its spiDevice,
    /// board, gpio chip and image-sensor settings.
    public var config: LockConfig?

    /// How long the commands that wait for a finger wait (nil: the reader's default).
    public var fingerTimeout: Duration?
    /// A test hook: kill the process at this named point of a crash-sensitive sequence.
    public var failpoint: String?
    /// Report every module exchange and SPI message through `progress`.
    public var trace = false
    /// The command's words, for refusals that name it (`fpmod sync`).
    public var command: [String] = []
    /// The store's database, so a command that only reads the module still checks a paired
    /// store's identity first.
    public var storeDatabase: String?
    public var storeKey: String?
    /// Progress and findings while opening, one line each, without a newline.
    public var progress: @Sendable (String) -> Void = { _ in }

    public init() {}
}

/// A simulator for a command: a module profile served in this process on a real
/// pseudo-terminal, or the simulated FPC1020 (`profile` "fpc1020").
public struct SimulatorOptions: Sendable {
    /// "r307", "as608", "r503", or "fpc1020" for the image sensor.
    public var profile: String
    /// PNG captures of the simulated sensor (NAME/*.png); nil generates fingers.
    public var imagesDirectory: String?
    /// The finger the simulator touches when the command does not say.
    public var finger: String?
    /// How the simulated module's Search walks its library.
    public var searchModel: SearchModel
    /// Where the simulated module keeps its flash between commands.
    public var statePath: String

    public init(profile: String = "r307", imagesDirectory: String? = nil, finger: String? = nil,
                searchModel: SearchModel = .bestMatch, statePath: String) {
        self.profile = profile
        self.imagesDirectory = imagesDirectory
        self.finger = finger
        self.searchModel = searchModel
        self.statePath = statePath
    }

    /// The profile name of the simulated image sensor.
    public static let imageSensorProfile = "fpc1020"
    public var isImageSensor: Bool { profile == Self.imageSensorProfile }
}

/// An SPI sensor's wiring as `fpmod sensor` takes it: each nil falls back to the board preset.
public struct SensorWiringOptions: Sendable {
    /// A board preset by name (else the config's board, else the Pi this runs on).
    public var board: String?
    public var speedHz: Int?
    /// Soft reset and a polled interrupt register instead of GPIO lines.
    public var noGPIO = false
    public var irqLine: Int?
    public var resetLine: Int?
    public var chip: String?

    public init(board: String? = nil, speedHz: Int? = nil, noGPIO: Bool = false, irqLine: Int? = nil,
                resetLine: Int? = nil, chip: String? = nil) {
        self.board = board
        self.speedHz = speedHz
        self.noGPIO = noGPIO
        self.irqLine = irqLine
        self.resetLine = resetLine
        self.chip = chip
    }
}
