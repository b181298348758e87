import ImageSensor
import ImageSensorSimulator

/// An opened image sensor for one command: the simulated FPC1020 in this process or in
/// another (`fpmod sim --profile fpc1020 --link`), or an FPC1020A on spidev with its GPIO
/// lines (`SensorSession`).
public struct ImageSensorSession {
    public let sensor: any ImageSensor
    /// What to release afterwards: the spidev node and lines of a real sensor.
    private let hardware: SensorSession?

    /// Opens the sensor `choice` names. With the simulated one, `virtualFinger` (else the
    /// simulator's finger) is put down at every wait, so commands nobody is touching still work.
    public static func open(_ options: ReaderOptions, choice: ReaderChoice, virtualFinger: String?) throws -> ImageSensorSession {
        switch choice {
        case .simulatedSensor(let imagesDirectory):
            let sensor = try SimulatedImageSensor(imagesDirectory: imagesDirectory, seed: 1)
            sensor.autoTouch = virtualFinger ?? options.simulator?.finger
            return ImageSensorSession(sensor: sensor, hardware: nil)
        case .spiSensor(let device):
            let session = try SensorSession.open(options, device: device)
            return ImageSensorSession(sensor: session.sensor, hardware: session)
        case .socketSensor(let path):
            return ImageSensorSession(sensor: try SocketImageSensor(path: path), hardware: nil)
        case .module:
            preconditionFailure("ImageSensorSession.open called for a module")
        }
    }

    public func close() {
        hardware?.close()
    }
}
