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
            return try SensorCommand.write(try FingerCapture.capture(from: sensor.sensor, timeout: timeout, progress: invocation.progress),
                                           to: path, invocation)
        }
        let session = try ModuleSession.openVerified(try invocation.readerOptions())
        defer { session.close() }
        return try SensorCommand.write(try FingerCapture.capture(from: session.module, timeout: timeout, progress: invocation.progress),
                                       to: path, invocation)
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
