import GPIO
import Posix

/// Why the service could not start, and what to do.
public enum LockServiceError: Error, CustomStringConvertible {
    case line(LineRole, GPIOError)
    case socket(path: String, Errno)
    /// A live process listens on the socket path: never taken over.
    case socketInUse(path: String, pid: Int32, command: String?)
    case store(String)

    public var description: String {
        switch self {
        case let .line(role, error):
            return "Cannot request the \(role.rawValue) line: \(error.description) (set gpio.lines.\(role.rawValue) in the config to move or switch it off)"
        case let .socket(path, errno):
            return "Cannot listen on \(path): \(errno). Is another fpmod run active? Otherwise check that the directory exists and is writable, or set events.socket / control.socket."
        case let .socketInUse(path, pid, command):
            return "Another process listens on \(path): pid \(pid)\(command.map { " (\($0))" } ?? ""). Stop it first (systemctl stop fpmod, or kill \(pid)), or give this service its own events.socket / control.socket."
        case let .store(text):
            return "Template store: \(text)"
        }
    }
}
