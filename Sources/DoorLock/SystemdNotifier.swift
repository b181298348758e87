import Posix

/// `sd_notify` without libsystemd: datagrams to `$NOTIFY_SOCKET` (a path, or `@name` in the
/// abstract namespace). Does nothing when the variable is unset (not started by systemd).
public struct SystemdNotifier: Sendable {
    public let socketPath: String?
    /// Half of `$WATCHDOG_USEC`, when systemd watches us.
    public let watchdogInterval: Duration?

    public init(environment: [String: String]) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        if let text = environment["WATCHDOG_USEC"], let usec = UInt64(text), usec > 0 {
            watchdogInterval = .microseconds(Int64(usec / 2))
        } else {
            watchdogInterval = nil
        }
    }

    /// Sends e.g. `READY=1`, `WATCHDOG=1`, `STATUS=…`, `STOPPING=1`. Returns false on failure.
    @discardableResult
    public func notify(_ message: String) -> Bool {
        guard let socketPath else { return false }
        do { try UnixDatagram.send(Array(message.utf8), to: socketPath) } catch { return false }
        return true
    }
}
