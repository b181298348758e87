/// Why a reader could not be opened from the options, each with what to do. Errors of the
/// parts underneath (`ModuleError`, `SerialPortError`, `ImageSensorError`, `StoreError`,
/// `AdministrationError`) pass through unchanged; front ends map both to their own codes.
public enum ReaderSessionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Simulated captures given to a simulated module, which takes no images.
    case simulatedImagesNeedSensorProfile
    /// Two options each name a reader.
    case twoReaders(String, String)
    /// A command that needs a UART module, while the options select an image sensor.
    case moduleOnly(command: String, reader: ReaderChoice)
    /// No port for the module.
    case noPort
    /// A simulator profile nobody knows.
    case unknownSimulatorProfile(String)
    /// The simulated sensor's capture folder cannot be used.
    case simulatedImages(String)
    /// A board preset that does not load.
    case boardPreset(String)
    /// No IRQ and reset lines known for the SPI sensor; `wiringOptions`: the command takes them.
    case noSensorLines(wiringOptions: Bool)
    /// No GPIO chip known for the SPI sensor's lines.
    case noSensorChip(wiringOptions: Bool)
    /// The simulated sensor's control socket could not be served.
    case simulatorControl(String)

    /// The kind of failure, for a front end's exit code or status.
    public enum Kind: Sendable { case usage, config, unavailable }

    public var kind: Kind {
        switch self {
        case .noPort: .config
        case .simulatorControl: .unavailable
        default: .usage
        }
    }

    public var description: String {
        switch self {
        case .simulatedImagesNeedSensorProfile:
            return """
                --sim-images feeds the simulated image sensor, not a simulated module: add --sim-profile fpc1020, \
                or leave --sim-images out.
                """
        case let .twoReaders(first, second):
            return """
                Both \(first) and \(second) name a reader; fpmod uses one reader at a time. \
                Leave out the one you do not mean.
                """
        case let .moduleOnly(command, reader):
            let why = ReaderChoice.moduleOnlyReasons[command]
                ?? "it talks to a UART module's own firmware, which an image sensor does not have"
            let instead: String
            switch reader {
            case .simulatedSensor: instead = "drop --sim-profile fpc1020 to run it on a simulated module"
            case .spiSensor, .module: instead = "leave out --spi (and FPMOD_SPI) and give the module's --port"
            case .socketSensor: instead = "leave out --sensor-socket and use a module (--port, or --sim)"
            }
            if command == "doctor" {
                // Doctor runs; only its module check has nothing to talk to.
                return "The module check needs a UART module, and \(reader.name) is none (the SPI checks cover a real sensor: `fpmod doctor --spi PATH`); \(instead)."
            }
            return "`fpmod \(command)` works on a UART module only: \(why). It cannot run on \(reader.name); \(instead)."
        case .noPort:
            return """
                No module port given. Use --port PATH (or FPMOD_PORT), e.g. --port /dev/serial0 on a Raspberry Pi \
                or --port /dev/ttyUSB0 for a USB adapter; or try without hardware: --sim.
                """
        case let .unknownSimulatorProfile(name):
            return "No simulator profile \(name.debugDescription): use r307, as608, r503 or fpc1020."
        case let .simulatedImages(problem):
            return "--sim-images: \(problem)"
        case let .boardPreset(problem):
            return problem
        case let .noSensorLines(wiringOptions):
            return wiringOptions
                ? "No IRQ and reset lines known for this board: give --irq-line N --reset-line N (BCM numbers), --board NAME, or --no-gpio to soft-reset the sensor and poll its interrupt register."
                : "No IRQ and reset lines known for this board: set the configuration file's board (--config FILE) to a preset with an spi section, such as rpi4; `fpmod sensor probe --irq-line N --reset-line N` checks other wiring."
        case let .noSensorChip(wiringOptions):
            return wiringOptions
                ? "No GPIO chip known for this board: give --chip NAME (see gpiodetect), or --no-gpio."
                : "No GPIO chip known for this board: set the configuration file's gpio.chip, or its board to a preset that names one."
        case let .simulatorControl(problem):
            return problem
        }
    }
}
