import Posix

/// Why talking to a serial port failed. Each description says what happened and what to do.
public enum SerialPortError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing at `path`. `candidates` are the serial devices that do exist.
    case noSuchDevice(path: String, candidates: [String])
    /// The user may not open the device.
    case permissionDenied(path: String)
    /// Another process (or another open in this one) holds the port. `holderPID` when known.
    case busy(path: String, holderPID: Int32?)
    /// The path is not a terminal device (a regular file, a directory, …).
    case notATerminal(path: String)
    /// `path` exists but is no UART: `what` says what it is ("a directory", "a virtual console
    /// (the screen and keyboard), not a UART"); `candidates` are the serial devices that exist.
    case notAUART(path: String, what: String, candidates: [String])
    /// `baud` is not 9600 × N for N = 1…12.
    case unsupportedBaudRate(Int)
    /// The device went away: cable or USB adapter pulled, or the PTY's other side closed.
    case disconnected(path: String)
    /// Any other system-call failure; `operation` names the call.
    case io(Errno, operation: String)

    public var description: String {
        switch self {
        case let .noSuchDevice(path, candidates):
            let found = candidates.isEmpty
                ? "No serial devices exist at all (looked for /dev/ttyAMA*, ttyS*, ttyUSB*, ttyACM*, serial*)."
                : "Serial devices that do exist: \(candidates.joined(separator: ", "))."
            return "Serial port \(path) does not exist. \(found) Check the configured port and the cable or "
                + "USB adapter. On a Raspberry Pi the GPIO UART needs `enable_uart=1` in config.txt "
                + "(or raspi-config → Interface Options → Serial Port: login shell no, hardware yes)."
        case let .permissionDenied(path):
            return "Permission denied opening \(path). Add the user to the `dialout` group: "
                + "`sudo usermod -aG dialout $USER`, then log out and in again (or run the service as its own user)."
        case let .busy(path, holder):
            let who = holder.map { "process \($0) (see `ps -p \($0)`)" } ?? "another program"
            return "Serial port \(path) is in use by \(who). Stop the other user — a running "
                + "`fpmod run` (use its control socket instead), a serial getty "
                + "(`sudo systemctl disable --now serial-getty@…`), or ModemManager "
                + "(`sudo systemctl disable --now ModemManager`) — then try again."
        case let .notATerminal(path):
            return "\(path) is not a serial device (not a terminal). Point the configuration at a "
                + "tty such as /dev/serial0, /dev/ttyAMA0 or /dev/ttyUSB0."
        case let .notAUART(path, what, candidates):
            let found = candidates.isEmpty
                ? "No serial devices exist here at all (looked for /dev/ttyAMA*, ttyS*, ttyUSB*, ttyACM*, serial*)."
                : "Serial devices that do exist: \(candidates.joined(separator: ", "))."
            return "\(path) is \(what). \(found) Give the module's port with --port (or FPMOD_PORT, or serialPort in the config)."
        case let .unsupportedBaudRate(baud):
            return "Baud rate \(baud) is not supported. Use 9600 × N for N from 1 to 12: "
                + BaudRate.supported.map(String.init).joined(separator: ", ") + " (factory default 57600)."
        case let .disconnected(path):
            return "Serial port \(path) was disconnected (I/O error or hang-up). Check the cable or "
                + "USB adapter, then open the port again."
        case let .io(error, operation):
            return "Serial port \(operation) failed: \(error)."
        }
    }
}
