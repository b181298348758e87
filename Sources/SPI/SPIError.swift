import Posix

/// Why talking to an SPI device failed. Each description says what happened and what to do.
public enum SPIError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing at `path`. `candidates` are the spidev nodes that do exist.
    case noSuchDevice(path: String, candidates: [String])
    /// The user may not open the device.
    case permissionDenied(path: String)
    /// Another process (or another open in this one) holds the device.
    case busy(path: String)
    /// The path opened but does not answer spidev ioctls (a tty, a regular file …).
    case notSPIDevice(path: String)
    /// The message moves more bytes than spidev's buffer takes (`limit`, its `bufsiz`).
    case messageTooLong(path: String, bytes: Int, limit: Int)
    /// At `speedHz` the message would end after the caller's deadline.
    case wouldMissDeadline(path: String, bytes: Int, speedHz: UInt32)
    /// A setting the driver refused (mode, speed, word size).
    case unsupportedSetting(path: String, setting: String, errno: Errno)
    /// The kernel (or the controller driver) failed the transfer.
    case transferFailed(path: String, errno: Errno)
    /// The device was used after `close()`.
    case closed(path: String)
    /// Any other failing call.
    case io(Errno, operation: String)

    public var description: String {
        switch self {
        case let .noSuchDevice(path, candidates):
            let found = candidates.isEmpty
                ? "No /dev/spidev* exists at all, so SPI is switched off (or no spidev node is bound)."
                : "SPI devices that do exist: \(candidates.joined(separator: ", "))."
            return "SPI device \(path) does not exist. \(found) To enable SPI on a Raspberry Pi put "
                + "dtparam=spi=on in /boot/firmware/config.txt (or raspi-config → Interface Options → SPI) "
                + "and reboot; CE0 is /dev/spidev0.0, CE1 /dev/spidev0.1."
        case let .permissionDenied(path):
            return "Permission denied opening \(path). Add the service user to the `spi` group: "
                + "`sudo usermod -aG spi $USER`, then log out and in again (Raspberry Pi OS gives /dev/spidev* "
                + "to root:spi 0660)."
        case let .busy(path):
            return "SPI device \(path) is in use by another fpmod (a running `fpmod run`, or another "
                + "`fpmod sensor`). Stop it, or use its control socket, then try again."
        case let .notSPIDevice(path):
            return "\(path) is not an SPI device (it does not answer spidev ioctls). Give the sensor's "
                + "spidev node, e.g. /dev/spidev0.0 for SPI0 CE0."
        case let .messageTooLong(path, bytes, limit):
            return "An SPI message of \(bytes) bytes is longer than the \(limit) bytes the spidev driver of \(path) "
                + "takes. Raise the limit: add spidev.bufsiz=65536 to /boot/firmware/cmdline.txt and reboot."
        case let .wouldMissDeadline(path, bytes, speed):
            return "Moving \(bytes) bytes over \(path) at \(speed) Hz would end after the deadline. "
                + "Raise the SPI speed or allow more time."
        case let .unsupportedSetting(path, setting, errno):
            return "The SPI driver of \(path) refused \(setting): \(errno). Use a setting the controller "
                + "supports (mode 0–3, 8 bits per word, a speed up to the sensor's limit)."
        case let .transferFailed(path, errno):
            return "SPI transfer on \(path) failed: \(errno). Check the wiring (MOSI, MISO, SCLK, CE), the "
                + "sensor's supply, and the kernel log (dmesg) for the controller's message."
        case let .closed(path):
            return "SPI device \(path) was used after it was closed. This is a bug in the caller: open it again."
        case let .io(errno, operation):
            return "SPI \(operation) failed: \(errno)."
        }
    }
}
