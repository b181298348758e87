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
        return try write(try FingerCapture.capture(from: session.sensor, timeout: timeout, progress: invocation.progress),
                         to: path, invocation)
    }

    /// Writes the PNG at `path` (checked writable already); a sensor's image without a finger
    /// is refused after it is written, so a bad placement can be looked at. Also `fpmod capture`.
    static func write(_ captured: FingerCapture.Captured, to path: String, _ invocation: Invocation) throws -> ExitCode {
        let image = captured.image
        let png = image.pngData()
        guard FileManager.default.createFile(atPath: path, contents: Data(png)) else {
            throw CommandFailure(.ioError, "Cannot write \(path): check that its directory exists and is writable.")
        }
        var json: [String: JSONValue] = ["image": .string(path), "width": .int(Int64(image.width)),
                                         "height": .int(Int64(image.height)), "bytes": .int(Int64(png.count))]
        guard let coverage = captured.coverage else {
            invocation.emit("Wrote \(path) (\(image.width)×\(image.height), \(png.count) bytes).", json: .object(json))
            return .ok
        }
        guard coverage.holdsFinger else {
            throw CommandFailure(.tryLater, "Wrote \(path), but " + ImageSensorError.noFinger(coverage).description)
        }
        json["coveredBlocks"] = .int(Int64(coverage.coveredBlocks))
        json["totalBlocks"] = .int(Int64(coverage.totalBlocks))
        invocation.emit("Wrote \(path) (\(image.width)×\(image.height), \(png.count) bytes); \(coverage).", json: .object(json))
        return .ok
    }
}
