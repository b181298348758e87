import Diagnostics
import DoorLock
import GPIO
import ImageSensor
import SPI

/// An opened SPI image sensor with what it holds: the spidev device and the GPIO chip and
/// lines. Where things are: the wiring options, else the board preset's `spi` section (the
/// named board, else the configuration file's board, else the Pi found from
/// /proc/device-tree/model), else /dev/spidev0.0 without GPIO. The wiring options are those of
/// `fpmod sensor`; the reader commands (enroll, identify…) take only the device and use the preset.
public struct SensorSession {
    public let device: SPIDevice
    public let chip: (any GPIOChip)?
    public let irq: (any InputLine)?
    public let reset: (any OutputLine)?
    public let sensor: FPC1020Sensor

    /// Default clock: half the FPC1020A's 8 MHz limit, which jumper wires on a breadboard
    /// still carry cleanly.
    public static let defaultSpeedHz = 4_000_000

    public var interruptText: String {
        let irqText = irq.map { "IRQ on GPIO\($0.offset) (edges waited for in poll)" } ?? "no IRQ line (interrupt register polled every 5 ms)"
        let resetText = reset.map { "reset on GPIO\($0.offset)" } ?? "soft reset"
        return "\(irqText), \(resetText)"
    }

    /// `device`: the spidev node the reader choice named (the SPI option, or the config's
    /// spiDevice); nil: the option, else the preset's, else CE0 of SPI0.
    public static func open(_ options: ReaderOptions, device: String? = nil) throws -> SensorSession {
        let preset = try boardPreset(options.wiring?.board, options.config)
        let wiring = preset?.spi
        let path = device ?? options.spiDevice ?? options.config?.spiDevice ?? wiring?.device
            ?? SPIDiagnostics.devicePath(bus: 0, chipSelect: 0)
        let speed = options.wiring?.speedHz ?? defaultSpeedHz

        // SPI first: without dtparam=spi=on nothing else matters yet.
        let device: SPIDevice
        do {
            device = try SPIDevice.open(path: path, mode: .mode0, speedHz: UInt32(speed))
        } catch {
            throw ImageSensorError.spi(error)
        }
        let lines: Lines
        do {
            if options.wiring.map(\.noGPIO) ?? (wiring == nil) {
                if options.wiring == nil {
                    // A reader command (enroll, identify…) has no line options: without a preset
                    // that places the lines, the sensor still works, polled.
                    options.progress("""
                        No IRQ or reset line known (no board preset with an spi section: set the config's board, e.g. rpi4): \
                        soft-resetting the sensor and polling its interrupt register.
                        """)
                }
                lines = Lines()
            } else {
                lines = try openLines(options.wiring, preset: preset, configChip: options.config?.gpio.chip)
            }
        } catch {
            device.close()
            throw error
        }
        do {
            // Tracing shows every SPI message, as it shows module frames.
            let progress = options.progress
            let bus: any SPIBus = options.trace ? TracingSPIBus(device) { progress($0) } : device
            let sensor = try FPC1020Sensor.open(bus: bus, irqLine: lines.irq, resetLine: lines.reset)
            return SensorSession(device: device, chip: lines.chip, irq: lines.irq, reset: lines.reset, sensor: sensor)
        } catch {
            device.close()
            throw error
        }
    }

    private struct Lines {
        var chip: (any GPIOChip)?
        var irq: (any InputLine)?
        var reset: (any OutputLine)?
    }

    /// The IRQ line (rising edges, active high) and the reset line (active low, idle released)
    /// from the wiring options, else the preset's spi section.
    private static func openLines(_ options: SensorWiringOptions?, preset: BoardPreset?, configChip: String?) throws -> Lines {
        let wiring = preset?.spi
        let wiringOptions = options != nil
        let irqOffset = options?.irqLine ?? wiring?.irq.offset
        let resetOffset = options?.resetLine ?? wiring?.reset.offset
        guard let irqOffset, let resetOffset else { throw ReaderSessionError.noSensorLines(wiringOptions: wiringOptions) }
        guard let chipName = options?.chip ?? configChip ?? preset?.resolveChip() else {
            throw ReaderSessionError.noSensorChip(wiringOptions: wiringOptions)
        }
        do {
            let chip = try LibgpiodChip(chipName)
            let (irq, reset) = try FPC1020Sensor.requestLines(on: chip, irqOffset: irqOffset, resetOffset: resetOffset)
            return Lines(chip: chip, irq: irq, reset: reset)
        } catch {
            throw ImageSensorError.gpio(error)
        }
    }

    public func close() {
        irq?.release()
        reset?.release()
        device.close()
    }

    private static func boardPreset(_ name: String?, _ config: LockConfig?) throws -> BoardPreset? {
        if let name {
            do {
                return try BoardPreset.load(name: name)
            } catch {
                throw ReaderSessionError.boardPreset(error.description)
            }
        }
        if let config, let preset = try? config.loadBoard(), preset.spi != nil {
            return preset
        }
        let model = SystemFacts.readText("/proc/device-tree/model")
        let board = PiModel(deviceTreeModel: model)
        return board.isSupportedPi ? BoardPreset.builtIn.first { $0.name == board.presetName } : nil
    }
}
