import DoorLock
import Foundation
import FingerprintProtocol
import ReaderSessions

/// Everything building the lock service takes, as plain values: the config file, the reader
/// (a module's port, an SPI sensor, a sensor served on a socket, or a simulator), the GPIO chip,
/// the store, and where to say what happens meanwhile. `fpmod run` fills it from its options
/// and the environment (every value already checked by its parser); a console from a form.
/// Each nil falls back to the config file, then to the defaults, as `fpmod run` documents.
public struct ServiceSettings: Sendable {
    /// The config file (--config, FPMOD_CONFIG). Without one the service runs on the defaults,
    /// which only a simulator (`simulator` or `simulatedGPIO`) may do.
    public var configPath: String?
    /// Memory GPIO laid out as the board preset (`gpio-vm` without a config), its inputs driven
    /// through the simulator's control socket (--sim-gpio).
    public var simulatedGPIO = false
    /// The GPIO chip, over the board preset's and the config's (--chip).
    public var chipName: String?

    /// The module's serial port (--port, FPMOD_PORT); wins over the config's spiDevice.
    public var port: String?
    /// The FPC1020A's spidev node (--spi, FPMOD_SPI).
    public var spiDevice: String?
    /// The socket of a simulated sensor another process serves (--sensor-socket).
    public var sensorSocket: String?
    /// A simulator in this process instead of hardware (--sim); wins over the three above.
    public var simulator: SimulatorOptions?

    /// Address, password and family of an unpaired module (a paired one is opened with the
    /// store's pairing), and its baud rate: nil takes the config's, else the factory values.
    public var address: UInt32?
    public var password: UInt32?
    public var family: ModuleFamily?
    public var baudRate: Int?

    /// The store's database and key as named (--store, --key): nil takes the config's, else the
    /// defaults (the personal store with a simulator, never the installed one).
    public var storeDatabase: String?
    public var storeKey: String?

    /// The process environment: the default socket directory, and systemd's NOTIFY_SOCKET and
    /// WATCHDOG_USEC.
    public var environment = ProcessInfo.processInfo.environment
    /// The host's version, for `status` and Home Assistant's device page.
    public var softwareVersion = "fpmod"
    /// What happens while building (the simulator started and how to drive it), one line each,
    /// without a newline.
    public var progress: @Sendable (String) -> Void = { _ in }

    public init() {}

}
