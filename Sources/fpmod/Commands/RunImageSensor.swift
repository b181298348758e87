import DoorLock
import HostReader
import ImageSensor
import ImageSensorSimulator

/// `fpmod run` on an image sensor that leaves matching to the host: the service's reader is a
/// `HostReader` over the sensor and the service's store. Self-contained on purpose (the CLI's
/// own reader opening lives elsewhere); the service only needs a `ReaderConnection`.
enum RunImageSensor {
    /// `--sim --sim-profile fpc1020`: a simulated FPC1020 in this process and its control socket.
    struct Simulation {
        let sensor: SimulatedImageSensor
        let control: SimulatedSensorControl
        let reader: ReaderConnection

        /// For the banner, `status` and the CLI's "same service?" check.
        var connection: String { sensor.identity.connection }
    }

    static let profile = "fpc1020"

    /// Whether `--sim-profile` names the image sensor rather than a module.
    static func isImageSensorProfile(_ name: String?) -> Bool {
        name?.lowercased() == profile
    }

    /// The simulated sensor (captures from `imagesDirectory`/NAME/*.png, else generated fingers)
    /// with its control socket at `controlPath`, serving until `control.stop()`.
    static func simulate(imagesDirectory: String?, controlPath: String) throws -> Simulation {
        let sensor: SimulatedImageSensor
        do { sensor = try SimulatedImageSensor(imagesDirectory: imagesDirectory) } catch {
            throw CommandFailure(.usage, "--sim-images: \(error)")
        }
        let control: SimulatedSensorControl
        do { control = try SimulatedSensorControl(sensor: sensor, path: controlPath) } catch {
            throw CommandFailure(.unavailable, error.description)
        }
        return Simulation(sensor: sensor, control: control, reader: hostMatching(sensor))
    }

    /// A reader made afresh at every (re)connect over the same sensor: the host matcher and
    /// the store's fingers; the store guard refuses a module's store with its fix.
    static func hostMatching(_ sensor: any ImageSensor) -> ReaderConnection {
        .hostMatching { store in try HostReader(sensor: sensor, store: store) }
    }
}
