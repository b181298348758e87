import ArgumentParsing
import ImageSensor
import ImageSensorSimulator

/// An opened image sensor for one command: the simulated FPC1020 in this process or in
/// another (`fpmod sim --profile fpc1020 --link`), or an FPC1020A on spidev with its GPIO
/// lines (`SensorSession`).
struct ImageSensorSession {
    let sensor: any ImageSensor
    /// What to release afterwards: the spidev node and lines of a real sensor.
    private let hardware: SensorSession?

    /// Opens the sensor `choice` names. With the simulated one, `virtualFinger` (else
    /// --sim-finger) is put down at every wait, so commands nobody is touching still work.
    static func open(_ invocation: Invocation, choice: ReaderChoice, virtualFinger: String?) throws -> ImageSensorSession {
        switch choice {
        case .simulatedSensor(let imagesDirectory):
            let sensor: SimulatedImageSensor
            do {
                sensor = try SimulatedImageSensor(imagesDirectory: imagesDirectory, seed: 1)
            } catch {
                throw SensorSession.failure(error)
            }
            sensor.autoTouch = virtualFinger ?? invocation.parsed.string("sim-finger")
            return ImageSensorSession(sensor: sensor, hardware: nil)
        case .spiSensor(let device):
            let session = try SensorSession.open(invocation, device: device)
            return ImageSensorSession(sensor: session.sensor, hardware: session)
        case .socketSensor(let path):
            do {
                return ImageSensorSession(sensor: try SocketImageSensor(path: path), hardware: nil)
            } catch {
                throw SensorSession.failure(error)
            }
        case .module:
            preconditionFailure("ImageSensorSession.open called for a module")
        }
    }

    func close() {
        hardware?.close()
    }
}

/// Sensor errors escaping a command (a capture through the host reader) get the exit codes
/// `fpmod sensor` gives them.
extension ImageSensorError: CLIError {
    public var exitCode: ExitCode { SensorSession.exitCode(self) }
    public var message: String { description }
}
