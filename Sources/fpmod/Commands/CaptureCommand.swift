import ArgumentParsing
import FingerprintModule
import FingerprintProtocol
import Foundation
import ReaderSessions

/// `fpmod capture --image FILE.png`: waits for a finger, uploads the image (from a module) or
/// reads it (from an image sensor, real or simulated), writes a PNG.
enum CaptureCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        let path = parsed.string("image") ?? "fingerprint.png"
        let timeout = try parsed.duration("timeout") ?? .seconds(10)
        // Checked before anybody is asked for a finger.
        try AdminCommand.requireSimFinger(invocation)
        try checkWritable(path)
        let choice = try invocation.readerChoice()
        if choice.isImageSensor {
            let sensor = try ImageSensorSession.open(try invocation.readerOptions(), choice: choice, virtualFinger: nil)
            defer { sensor.close() }
            return try SensorCommand.capture(from: sensor.sensor, to: path, timeout: timeout, invocation)
        }
        let session = try ModuleSession.openVerified(try invocation.readerOptions())
        defer { session.close() }
        let module = session.module

        invocation.progress("Place your finger on the sensor.")
        try FingerWait.untilCaptured(module, timeout: timeout)
        let size = module.imageSize
        invocation.progress("Captured; reading the \(size.width)×\(size.height) image from the module…")
        let image = try module.uploadImage()
        let png = image.pngData()
        guard FileManager.default.createFile(atPath: path, contents: Data(png)) else {
            throw CommandFailure(.ioError, "Cannot write \(path): check that its directory exists and is writable.")
        }
        invocation.emit("Wrote \(path) (\(image.width)×\(image.height), \(png.count) bytes).",
                        json: ["image": .string(path), "width": .int(Int64(image.width)),
                               "height": .int(Int64(image.height)), "bytes": .int(Int64(png.count))])
        return .ok
    }

    /// The image can be written at `path`: not a directory, in a directory that exists and is
    /// writable, and not a file this user cannot replace.
    private static func checkWritable(_ path: String) throws {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue {
                throw CommandFailure(.usage, "\(path) is a directory; give the image a file name, e.g. --image \(path)/finger.png.")
            }
            guard manager.isWritableFile(atPath: path) else {
                throw CommandFailure(.ioError, "Cannot write \(path): the file is not writable for this user; choose another --image path.")
            }
            return
        }
        let directory = (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent
        guard manager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandFailure(.ioError, "Cannot write \(path): the directory \(directory) does not exist. Create it or choose another --image path.")
        }
        guard manager.isWritableFile(atPath: directory) else {
            throw CommandFailure(.ioError, "Cannot write \(path): the directory \(directory) is not writable for this user; choose another --image path.")
        }
    }
}

/// Waiting for a finger by polling GenImg (each round trip a few ms of wire time): used by the
/// CLI, where no touch line is wired. The door service waits on the touch line instead.
enum FingerWait {
    struct TimedOut: CLIError {
        var exitCode: ExitCode { .tryLater }
        var message: String { "No finger was placed on the sensor in time. Try again, pressing the whole fingertip flat." }
    }

    static func untilCaptured(_ module: FingerprintModule, timeout: Duration) throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            switch try module.captureImage() {
            case .captured: return
            case .noFinger, .failed: break
            }
            if ContinuousClock.now >= deadline { throw TimedOut() }
        }
    }

    /// Waits until GenImg reports no finger, so the next capture is a new touch.
    static func untilLifted(_ module: FingerprintModule, timeout: Duration) throws {
        let deadline = ContinuousClock.now + timeout
        while try module.captureImage() != .noFinger {
            if ContinuousClock.now >= deadline { throw TimedOut() }
        }
    }
}
