import CShims
import Glibc
import Posix

/// termios set-up shared by `SerialPort` and `PseudoTerminal`.
enum TerminalSettings {
    /// Raw 8N1 with the receiver on and modem lines ignored; no hardware or software flow
    /// control; VMIN = VTIME = 0 because every wait is a poll() with a deadline instead.
    static func makeRaw(_ fd: FileDescriptor) throws(Errno) {
        var settings = termios()
        _ = try retryingOnInterrupt { tcgetattr(fd.rawValue, &settings) }
        cfmakeraw(&settings)
        settings.c_cflag &= ~(tcflag_t(CSIZE | PARENB | CSTOPB) | tcflag_t(CRTSCTS))
        settings.c_cflag |= tcflag_t(CS8 | CLOCAL | CREAD)
        settings.c_iflag &= ~tcflag_t(IXON | IXOFF | IXANY)
        withUnsafeMutableBytes(of: &settings.c_cc) {
            $0[Int(VMIN)] = 0
            $0[Int(VTIME)] = 0
        }
        _ = try retryingOnInterrupt { tcsetattr(fd.rawValue, TCSANOW, &settings) }
    }

    /// Sets both directions to `baud` bits/s: a B-constant where one exists, else termios2
    /// BOTHER. The caller validated `baud`.
    static func setBaudRate(_ baud: Int, on fd: FileDescriptor) throws(Errno) {
        if let constant = BaudRate.speedConstant(for: baud) {
            var settings = termios()
            _ = try retryingOnInterrupt { tcgetattr(fd.rawValue, &settings) }
            _ = cfsetspeed(&settings, constant)
            _ = try retryingOnInterrupt { tcsetattr(fd.rawValue, TCSANOW, &settings) }
        } else {
            _ = try retryingOnInterrupt { fpmod_set_baud(fd.rawValue, UInt32(baud)) }
        }
    }

    /// The output speed the kernel holds for `fd` (on a PTY master: what the slave's user set).
    static func baudRate(of fd: FileDescriptor) -> Int? {
        var rate: UInt32 = 0
        guard fpmod_get_baud(fd.rawValue, &rate) == 0 else { return nil }
        return Int(rate)
    }
}

extension Errno {
    /// Errors that mean the device is gone rather than misused.
    var meansDisconnected: Bool {
        self == .ioError || self == .noDevice || self == .noSuchDeviceOrAddress
    }
}

/// Resolves symlinks (/dev/serial0 → /dev/ttyAMA0) for messages; the path itself if it cannot.
func resolvingSymlinks(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
}
