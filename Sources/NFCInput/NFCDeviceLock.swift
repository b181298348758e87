import Glibc
import Posix

/// An exclusive `flock` on a reader's device node, held while an `NFCReader` has it open. Two
/// programs talking to one PN532 garble each other's frames, and libnfc does not stop a second
/// one on Linux (its "claimed" mark lives in a termios bit the kernel drops), so fpmod's own
/// openers (the service, `card read`, doctor) take this lock and a second one is told who has
/// the reader instead of seeing noise.
final class NFCDeviceLock {
    private var descriptor: FileDescriptor?

    /// `open(2)` of `path` (not a controlling tty, non-blocking: no wait for carrier), then
    /// `FileDescriptor.lockExclusively`, as the module's serial port and the SPI sensor take.
    init(path: String, connection: NFCConnection) throws(NFCError) {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC) } catch {
            switch error {
            case .permissionDenied, .notPermitted: throw .permissionDenied(path)
            case .noSuchFile, .noDevice, .noSuchDeviceOrAddress: throw .noSuchPort(path)
            default: throw .failed(call: "open(\(path))", code: -1, message: "\(error)")
            }
        }
        let locked: Bool
        do { locked = try fd.lockExclusively() } catch {
            try? fd.close()
            throw .failed(call: "flock(\(path))", code: -1, message: "\(error)")
        }
        guard locked else {
            try? fd.close()
            throw .inUse(connection)
        }
        descriptor = fd
    }

    deinit { release() }

    /// Closing the descriptor lets the lock go. Idempotent.
    func release() {
        try? descriptor?.close()
        descriptor = nil
    }
}
