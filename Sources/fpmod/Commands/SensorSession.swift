import ArgumentParsing
import Diagnostics
import Foundation
import GPIO
import ImageSensor
import SPI

/// An opened SPI image sensor with what it holds: the spidev device and the GPIO chip and
/// lines. Where things are: the options, else the board preset's `spi` section (--board, else
/// the configuration file's board, else the Pi found from /proc/device-tree/model), else
/// /dev/spidev0.0 without GPIO. The wiring options (`SensorOptions`) are those of `fpmod
/// sensor`; the reader commands (enroll, identify…) take only --spi and use the preset.
struct SensorSession {
    let device: SPIDevice
    let chip: (any GPIOChip)?
    let irq: (any InputLine)?
    let reset: (any OutputLine)?
    let sensor: FPC1020Sensor

    /// Default clock: half the FPC1020A's 8 MHz limit, which jumper wires on a breadboard
    /// still carry cleanly.
    static let defaultSpeedHz = 4_000_000

    var interruptText: String {
        let irqText = irq.map { "IRQ on GPIO\($0.offset) (edges waited for in poll)" } ?? "no IRQ line (interrupt register polled every 5 ms)"
        let resetText = reset.map { "reset on GPIO\($0.offset)" } ?? "soft reset"
        return "\(irqText), \(resetText)"
    }

    /// `device`: the spidev node the reader choice named (--spi, or the config's spiDevice);
    /// nil: --spi, else the preset's, else CE0 of SPI0.
    static func open(_ invocation: Invocation, device: String? = nil) throws -> SensorSession {
        let parsed = invocation.parsed
        let preset = try boardPreset(declared("board", parsed) ? parsed.string("board") : nil, invocation)
        let wiring = preset?.spi
        let path = device ?? parsed.string("spi") ?? invocation.configFile?.spiDevice ?? wiring?.device
            ?? SPIDiagnostics.devicePath(bus: 0, chipSelect: 0)
        let speed = try (declared("speed", parsed) ? parsed.int("speed", range: 100_000...8_000_000) : nil) ?? defaultSpeedHz

        // SPI first: without dtparam=spi=on nothing else matters yet.
        let device: SPIDevice
        do {
            device = try SPIDevice.open(path: path, mode: .mode0, speedHz: UInt32(speed))
        } catch {
            throw failure(.spi(error))
        }
        let lines: Lines
        do {
            if declared("no-gpio", parsed) ? parsed.flag("no-gpio") : wiring == nil {
                if !declared("no-gpio", parsed) {
                    // A reader command (enroll, identify…) has no line options: without a preset
                    // that places the lines, the sensor still works, polled.
                    invocation.progress("""
                        No IRQ or reset line known (no board preset with an spi section: set the config's board, e.g. rpi4): \
                        soft-resetting the sensor and polling its interrupt register.
                        """)
                }
                lines = Lines()
            } else {
                lines = try openLines(parsed, preset: preset, configChip: invocation.configFile?.gpio.chip)
            }
        } catch {
            device.close()
            throw error
        }
        do {
            // -v shows every SPI message on stderr, as it shows module frames.
            let bus: any SPIBus = invocation.verbosity > 0
                ? TracingSPIBus(device) { StandardStreams.writeError($0 + "\n") }
                : device
            let sensor = try FPC1020Sensor.open(bus: bus, irqLine: lines.irq, resetLine: lines.reset)
            return SensorSession(device: device, chip: lines.chip, irq: lines.irq, reset: lines.reset, sensor: sensor)
        } catch {
            device.close()
            throw failure(error)
        }
    }

    private struct Lines {
        var chip: (any GPIOChip)?
        var irq: (any InputLine)?
        var reset: (any OutputLine)?
    }

    /// The IRQ line (rising edges, active high) and the reset line (active low, idle released)
    /// from the options, else the preset's spi section.
    private static func openLines(_ parsed: ParsedCommand, preset: BoardPreset?, configChip: String?) throws -> Lines {
        let wiring = preset?.spi
        let wiringOptions = declared("irq-line", parsed)
        let irqOffset = try (wiringOptions ? parsed.int("irq-line", range: 0...1023) : nil) ?? wiring?.irq.offset
        let resetOffset = try (wiringOptions ? parsed.int("reset-line", range: 0...1023) : nil) ?? wiring?.reset.offset
        guard let irqOffset, let resetOffset else {
            throw CommandFailure(.usage, wiringOptions
                ? "No IRQ and reset lines known for this board: give --irq-line N --reset-line N (BCM numbers), --board NAME, or --no-gpio to soft-reset the sensor and poll its interrupt register."
                : "No IRQ and reset lines known for this board: set the configuration file's board (--config FILE) to a preset with an spi section, such as rpi4; `fpmod sensor probe --irq-line N --reset-line N` checks other wiring.")
        }
        guard let chipName = (wiringOptions ? parsed.string("chip") : nil) ?? configChip ?? preset?.resolveChip() else {
            throw CommandFailure(.usage, wiringOptions
                ? "No GPIO chip known for this board: give --chip NAME (see gpiodetect), or --no-gpio."
                : "No GPIO chip known for this board: set the configuration file's gpio.chip, or its board to a preset that names one.")
        }
        do {
            let chip = try LibgpiodChip(chipName)
            let (irq, reset) = try FPC1020Sensor.requestLines(on: chip, irqOffset: irqOffset, resetOffset: resetOffset)
            return Lines(chip: chip, irq: irq, reset: reset)
        } catch {
            throw failure(.gpio(error))
        }
    }

    func close() {
        irq?.release()
        reset?.release()
        device.close()
    }

    /// Runs a sensor call, turning its error into the command's failure.
    static func run<T>(_ body: () throws(ImageSensorError) -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw failure(error)
        }
    }

    /// Whether the command declares a wiring option (the `fpmod sensor` subcommands do).
    private static func declared(_ name: String, _ parsed: ParsedCommand) -> Bool {
        parsed.command.options.contains { $0.name == name }
    }

    private static func boardPreset(_ name: String?, _ invocation: Invocation) throws -> BoardPreset? {
        if let name {
            do {
                return try BoardPreset.load(name: name)
            } catch {
                throw CommandFailure(.usage, error.description)
            }
        }
        if let config = invocation.configFile, let preset = try? config.loadBoard(), preset.spi != nil {
            return preset
        }
        let model = SystemFacts.readText("/proc/device-tree/model")
        let board = PiModel(deviceTreeModel: model)
        return board.isSupportedPi ? BoardPreset.builtIn.first { $0.name == board.presetName } : nil
    }

    static func failure(_ error: ImageSensorError) -> CommandFailure {
        CommandFailure(exitCode(error), error.description)
    }

    static func exitCode(_ error: ImageSensorError) -> ExitCode {
        switch error {
        case let .spi(spi):
            switch spi {
            case .noSuchDevice, .notSPIDevice: return .unavailable
            case .permissionDenied: return .permission
            case .busy: return .tryLater
            case .messageTooLong, .unsupportedSetting: return .config
            default: return .ioError
            }
        case let .gpio(gpio):
            switch gpio {
            case .permissionDenied: return .permission
            case .chipNotFound, .offsetOutOfRange: return .unavailable
            case .lineBusy: return .tryLater
            default: return .ioError
            }
        case .wrongHardwareID, .noResetInterrupt, .interruptStuck: return .unavailable
        case .noFinger: return .tryLater
        case .noImages, .unreadableImage: return .config
        case .sensorLink: return .unavailable
        case .interruptTimeout, .unexpectedInterrupt, .sensorError: return .ioError
        }
    }
}
