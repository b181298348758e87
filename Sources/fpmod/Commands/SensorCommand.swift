import ArgumentParsing
import FingerprintProtocol
import Foundation
import GPIO
import ImageSensor
import Imaging
import ReaderSessions
import SPI

/// `fpmod sensor probe` and `fpmod sensor capture`: an SPI image sensor (FPC1020A) on spidev,
/// with its IRQ and reset lines on GPIO. `probe` is the wiring check (reset, hardware id,
/// setup); `capture` waits for a finger on the IRQ line, reads the image, checks that it holds
/// a finger, and writes a PNG.
enum SensorCommand {
    static func probe(_ invocation: Invocation) throws -> ExitCode {
        let session = try SensorSession.open(try invocation.readerOptions())
        defer { session.close() }
        let identity = session.sensor.identity
        let settings = session.device.settingsConfirmed
            ? "mode and speed confirmed by the driver"
            : "the driver did not take mode/speed ioctls (ENOTTY: an emulator?); speed is set per transfer"
        invocation.emit(
            "\(identity).\nReset, hardware id and setup OK; \(session.interruptText); \(settings).",
            json: ["model": .string(identity.model), "hardwareId": .int(Int64(identity.hardwareID ?? 0)),
                   "width": .int(Int64(identity.width)), "height": .int(Int64(identity.height)),
                   "dpi": .int(Int64(identity.dotsPerInch)), "device": .string(session.device.path),
                   "speedHz": .int(Int64(session.device.speedHz)), "settingsConfirmed": .bool(session.device.settingsConfirmed),
                   "interrupt": .string(session.interruptText)])
        return .ok
    }

    static func capture(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        let path = parsed.string("image") ?? "fingerprint.png"
        let timeout = try parsed.duration("timeout") ?? .seconds(10)
        // Checked before anybody is asked for a finger.
        let folder = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw CommandFailure(.ioError, "Cannot write \(path): the directory \(folder) does not exist or is not writable; choose another --image path.")
        }
        let session = try SensorSession.open(try invocation.readerOptions())
        defer { session.close() }
        return try capture(from: session.sensor, to: path, timeout: timeout, invocation)
    }

    /// Waits for a finger, captures, writes the PNG at `path` (checked writable already), and
    /// refuses an image without a finger after writing it, so a bad placement can be looked at.
    /// Also `fpmod capture` on an image sensor, real or simulated.
    static func capture(from sensor: any ImageSensor, to path: String, timeout: Duration,
                        _ invocation: Invocation) throws -> ExitCode {
        invocation.progress("Place your finger on the sensor.")
        guard try sensor.waitForFinger(deadline: .now + timeout) else {
            throw CommandFailure(.tryLater, "No finger was placed on the sensor in time. Try again, pressing the whole fingertip flat.")
        }
        let image = try sensor.capture()
        let coverage = FingerCoverage().evaluate(image)
        let png = try FingerprintImage(width: image.width, height: image.height, pixels: image.pixels).pngData()
        guard FileManager.default.createFile(atPath: path, contents: Data(png)) else {
            throw CommandFailure(.ioError, "Cannot write \(path): check that its directory exists and is writable.")
        }
        guard coverage.holdsFinger else {
            throw CommandFailure(.tryLater, "Wrote \(path), but " + ImageSensorError.noFinger(coverage).description)
        }
        invocation.emit("Wrote \(path) (\(image.width)×\(image.height), \(png.count) bytes); \(coverage).",
                        json: ["image": .string(path), "width": .int(Int64(image.width)), "height": .int(Int64(image.height)),
                               "bytes": .int(Int64(png.count)), "coveredBlocks": .int(Int64(coverage.coveredBlocks)),
                               "totalBlocks": .int(Int64(coverage.totalBlocks))])
        return .ok
    }
}
