/// Which kind of fingerprint reader the options name, decided from them alone before anything
/// is opened: a UART module (matching on the module) or an FPC1020 image sensor (matching on
/// the host), real or simulated.
public enum ReaderChoice: Equatable, Sendable {
    /// A port (--port, FPMOD_PORT), or a simulator with a module profile (r307, as608, r503).
    case module
    /// The simulated FPC1020 in this process, its captures read from `imagesDirectory`, or
    /// generated when nil.
    case simulatedSensor(imagesDirectory: String?)
    /// An FPC1020A on spidev, its lines from the board preset.
    case spiSensor(device: String)
    /// The simulated image sensor another process serves (`fpmod sim --profile fpc1020 --link PATH`),
    /// its fingers placed on that one's control socket.
    case socketSensor(path: String)

    public var isImageSensor: Bool { self != .module }

    /// The reader the options select. A simulator wins over the others, as --sim always won over
    /// --port; two of port, SPI device and sensor socket together are refused, since either could
    /// be meant — unless the command needs a module anyway (`moduleCommand`), where the port says
    /// which. The config's `spiDevice` is the reader when no option names one (so a module-only
    /// command on a sensor's config is refused, not sent to a port nobody wired).
    public init(_ options: ReaderOptions, moduleCommand: Bool = false) throws(ReaderSessionError) {
        if let simulator = options.simulator {
            if simulator.isImageSensor {
                self = .simulatedSensor(imagesDirectory: simulator.imagesDirectory)
                return
            }
            if simulator.imagesDirectory != nil { throw .simulatedImagesNeedSensorProfile }
            self = .module
            return
        }
        let named = [("--port (FPMOD_PORT)", options.port.map { _ in ReaderChoice.module }),
                     ("--spi (FPMOD_SPI)", options.spiDevice.map(ReaderChoice.spiSensor)),
                     ("--sensor-socket (FPMOD_SENSOR_SOCKET)", options.sensorSocket.map(ReaderChoice.socketSensor))]
            .compactMap { option, choice in choice.map { (option, $0) } }
        if moduleCommand, named.contains(where: { $0.1 == .module }) {
            self = .module
            return
        }
        guard named.count <= 1 else { throw .twoReaders(named[0].0, named[1].0) }
        if let choice = named.first?.1 {
            self = choice
        } else if let configured = options.config?.spiDevice {
            self = .spiSensor(device: configured)
        } else {
            self = .module
        }
    }

    /// How the reader is named in messages.
    public var name: String {
        switch self {
        case .module: "the UART module"
        case .simulatedSensor: "the simulated FPC1020 image sensor (--sim-profile fpc1020)"
        case .spiSensor(let device): "the FPC1020 image sensor on \(device) (--spi)"
        case .socketSensor(let path): "the simulated image sensor served on \(path) (--sensor-socket)"
        }
    }

    /// The refusal of a command that needs a UART module while an image sensor is selected.
    public func moduleOnlyRefusal(command path: [String]) -> ReaderSessionError {
        .moduleOnly(command: path.joined(separator: " "), reader: self)
    }

    /// Why each module-only command has nothing to do on an image sensor, where that is known.
    static let moduleOnlyReasons: [String: String] = [
        "sync": "it makes a module's flash library equal to the store, and an image sensor keeps no library (the store is its library, so there is nothing to sync)",
        "pair": "it gives a module a password and address, and an image sensor has neither",
        "layout": "it moves templates within a module's flash, and an image sensor's library is searched on the host, in memory, where order costs nothing",
        "raw": "it sends one instruction of the modules' packet protocol, which an image sensor does not speak (`fpmod sensor probe` talks to the FPC1020 directly)",
    ]
}
