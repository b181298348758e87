import ArgumentParsing

/// Which kind of fingerprint reader a command line names, decided from the options alone
/// before anything is opened: a UART module (matching on the module) or an FPC1020 image
/// sensor (matching on the host), real or simulated.
enum ReaderChoice: Equatable {
    /// --port PATH (FPMOD_PORT), or --sim with a module profile (r307, as608, r503).
    case module
    /// --sim --sim-profile fpc1020: the simulated sensor in this process, its captures read
    /// from --sim-images DIR, or generated when nil.
    case simulatedSensor(imagesDirectory: String?)
    /// --spi PATH (FPMOD_SPI): an FPC1020A on spidev, its lines from the board preset.
    case spiSensor(device: String)
    /// --sensor-socket PATH (FPMOD_SENSOR_SOCKET): the simulated sensor another process serves
    /// (`fpmod sim --profile fpc1020 --link PATH`), its fingers placed on that one's control socket.
    case socketSensor(path: String)

    /// The --sim-profile of the simulated image sensor.
    static let imageSensorProfile = "fpc1020"

    var isImageSensor: Bool { self != .module }

    /// The reader the options select. --sim wins over the others, as it always won over --port;
    /// two of --port, --spi and --sensor-socket together are refused, since either could be
    /// meant — unless the command needs a module anyway (`moduleCommand`), where --port says which.
    /// `configuredSPI`: the config file's `spiDevice`, the reader when no option names one (so a
    /// module-only command on a sensor's config is refused, not sent to a port nobody wired).
    init(_ parsed: ParsedCommand, moduleCommand: Bool = false, configuredSPI: String? = nil) throws {
        if parsed.flag("sim") {
            if parsed.string("sim-profile") == Self.imageSensorProfile {
                self = .simulatedSensor(imagesDirectory: parsed.string("sim-images"))
                return
            }
            if parsed.isExplicit("sim-images") {
                throw CommandFailure(.usage, """
                    --sim-images feeds the simulated image sensor, not a simulated module: add --sim-profile fpc1020, \
                    or leave --sim-images out.
                    """)
            }
            self = .module
            return
        }
        let named = [("--port (FPMOD_PORT)", parsed.string("port").map { _ in ReaderChoice.module }),
                     ("--spi (FPMOD_SPI)", parsed.string("spi").map(ReaderChoice.spiSensor)),
                     ("--sensor-socket (FPMOD_SENSOR_SOCKET)", parsed.string("sensor-socket").map(ReaderChoice.socketSensor))]
            .compactMap { option, choice in choice.map { (option, $0) } }
        if moduleCommand, named.contains(where: { $0.1 == .module }) {
            self = .module
            return
        }
        guard named.count <= 1 else {
            throw CommandFailure(.usage, """
                Both \(named[0].0) and \(named[1].0) name a reader; fpmod uses one reader at a time. \
                Leave out the one you do not mean.
                """)
        }
        if let choice = named.first?.1 {
            self = choice
        } else if let configuredSPI {
            self = .spiSensor(device: configuredSPI)
        } else {
            self = .module
        }
    }

    /// How the reader is named in messages.
    var name: String {
        switch self {
        case .module: "the UART module"
        case .simulatedSensor: "the simulated FPC1020 image sensor (--sim-profile fpc1020)"
        case .spiSensor(let device): "the FPC1020 image sensor on \(device) (--spi)"
        case .socketSensor(let path): "the simulated image sensor served on \(path) (--sensor-socket)"
        }
    }

    /// The refusal of a command that needs a UART module while an image sensor is selected:
    /// why it cannot work there, and what to do instead.
    func moduleOnlyRefusal(command path: [String]) -> CommandFailure {
        let command = path.joined(separator: " ")
        let why = Self.moduleOnlyReasons[command]
            ?? "it talks to a UART module's own firmware, which an image sensor does not have"
        let instead: String
        switch self {
        case .simulatedSensor: instead = "drop --sim-profile fpc1020 to run it on a simulated module"
        case .spiSensor, .module: instead = "leave out --spi (and FPMOD_SPI) and give the module's --port"
        case .socketSensor: instead = "leave out --sensor-socket and use a module (--port, or --sim)"
        }
        if command == "doctor" {
            // Doctor runs; only its module check has nothing to talk to.
            return CommandFailure(.usage, "The module check needs a UART module, and \(name) is none (the SPI checks cover a real sensor: `fpmod doctor --spi PATH`); \(instead).")
        }
        return CommandFailure(.usage, "`fpmod \(command)` works on a UART module only: \(why). It cannot run on \(name); \(instead).")
    }

    /// Why each module-only command has nothing to do on an image sensor, where that is known.
    static let moduleOnlyReasons: [String: String] = [
        "sync": "it makes a module's flash library equal to the store, and an image sensor keeps no library (the store is its library, so there is nothing to sync)",
        "pair": "it gives a module a password and address, and an image sensor has neither",
        "layout": "it moves templates within a module's flash, and an image sensor's library is searched on the host, in memory, where order costs nothing",
        "raw": "it sends one instruction of the modules' packet protocol, which an image sensor does not speak (`fpmod sensor probe` talks to the FPC1020 directly)",
    ]
}
