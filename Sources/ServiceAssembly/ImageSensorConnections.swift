import Administration
import DoorLock
import GPIO
import HostReader
import ImageSensor
import ImageSensorSimulator
import ReaderSessions
import SPI

/// The service on an image sensor that leaves matching to the host: the service's reader is a
/// `HostReader` over the sensor and the service's store. Apart from `ReaderSession` on purpose:
/// a command opens its reader once, the service needs a `ReaderConnection` it opens again after
/// every loss.
enum ImageSensorConnections {
    /// `--sim --sim-profile fpc1020`: a simulated FPC1020 in this process and its control socket.
    struct Simulation: Sendable {
        let sensor: SimulatedImageSensor
        let control: SimulatedSensorControl
        let reader: ReaderConnection

        /// For the banner, `status` and the CLI's "same service?" check.
        var connection: String { sensor.identity.connection }
    }

    /// The simulated sensor (captures from `imagesDirectory`/NAME/*.png, else generated fingers)
    /// with its control socket at `controlPath`, serving until `control.stop()`.
    static func simulate(imagesDirectory: String?, controlPath: String, settings: HostReader.Settings) throws -> Simulation {
        let sensor: SimulatedImageSensor
        do { sensor = try SimulatedImageSensor(imagesDirectory: imagesDirectory) } catch {
            throw ReaderSessionError.simulatedImages("\(error)")
        }
        let control: SimulatedSensorControl
        do { control = try SimulatedSensorControl(sensor: sensor, path: controlPath) } catch {
            throw ReaderSessionError.simulatorControl(error.description)
        }
        return Simulation(sensor: sensor, control: control, reader: hostMatching(sensor, settings: settings))
    }

    /// A reader made afresh at every (re)connect over the same sensor: the host matcher and
    /// the store's fingers; the store guard refuses a module's store with its fix.
    static func hostMatching(_ sensor: any ImageSensor, settings: HostReader.Settings) -> ReaderConnection {
        .hostMatching(prepare: prepareGallery) { store in try HostReader(sensor: sensor, store: store, settings: settings) }
    }

    /// `--sensor-socket PATH` (FPMOD_SENSOR_SOCKET): the simulated sensor another process serves
    /// on its link. Connected at every (re)connect; it waits for a finger itself (over the link),
    /// so the service needs no touch line. When that process ends the link breaks, and the
    /// service drops the reader and connects again with backoff, as it does for a sensor unplugged.
    static func socket(path: String, settings: HostReader.Settings) -> ReaderConnection {
        .hostMatching(detectsFingerItself: true, prepare: prepareGallery) { store in
            try HostReader(sensor: try SocketImageSensor(path: path), store: store, settings: settings)
        }
    }

    /// `--spi PATH` (FPMOD_SPI): a real FPC1020A on spidev, its IRQ and reset on the service's
    /// GPIO chip as the board preset's `spi` section says (without one: soft reset, and the
    /// interrupt register polled). Opened at every (re)connect; a sensor that stops answering
    /// is dropped (its node and lines close with it) and opened again with backoff.
    static func fpc1020(device path: String, wiring: SPIWiring?, chip: any GPIOChip, settings: HostReader.Settings) -> ReaderConnection {
        .hostMatching(detectsFingerItself: true, prepare: prepareGallery) { store in
            let device = try openDevice(path)
            var irq: (any InputLine)?
            var reset: (any OutputLine)?
            do {
                if let wiring {
                    (irq, reset) = try FPC1020Sensor.requestLines(on: chip, irqOffset: wiring.irq.offset, resetOffset: wiring.reset.offset)
                }
                let sensor = try FPC1020Sensor.open(bus: device, irqLine: irq, resetLine: reset)
                return try HostReader(sensor: sensor, store: store, settings: settings)
            } catch {
                irq?.release()
                reset?.release()
                device.close()
                if let error = error as? GPIOError { throw ImageSensorError.gpio(error) }
                throw error
            }
        }
    }

    /// The host reader's gallery, built while nobody touches the sensor.
    static let prepareGallery: @Sendable (any FingerprintReader) throws -> Void = { reader in
        try (reader as? HostReader)?.prepareGallery()
    }

    private static func openDevice(_ path: String) throws(ImageSensorError) -> SPIDevice {
        do {
            return try SPIDevice.open(path: path, mode: .mode0, speedHz: UInt32(SensorSession.defaultSpeedHz))
        } catch {
            throw .spi(error)
        }
    }
}
