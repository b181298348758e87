import Posix

/// A simulated sensor's socket (control or link) could not be set up.
public struct SensorSocketError: Error, Equatable, Sendable, CustomStringConvertible {
    public var path: String
    public var errno: Errno
    /// Who already listens there, when that is the problem ("pid 123, fpmod sim …").
    public var holder: String?

    public var description: String {
        if let holder {
            return "Cannot listen on \(path): \(holder) listens on it; stop that process first, or pick another path."
        }
        return "Cannot listen on \(path): \(errno). Check that its folder exists and is writable, or pick another path."
    }

    /// A listener at `path`, with mode 0660.
    static func listen(at path: String) throws(SensorSocketError) -> UnixListener {
        do {
            return try UnixListener(path: path, mode: 0o660)
        } catch {
            let owner = error == .addressInUse ? UnixListener.listener(at: path) : nil
            let holder = owner.map { "pid \($0.pid)" + ($0.commandLine.map { ", " + $0 } ?? "") }
            throw SensorSocketError(path: path, errno: error, holder: holder)
        }
    }
}
