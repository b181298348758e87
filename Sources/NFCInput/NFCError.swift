import DESFire

/// Why a card could not be read: each case names the libnfc call (or the check before it) and
/// what to do about it.
public enum NFCError: Error, Equatable, CustomStringConvertible {
    case invalidConnection(String, reason: String)
    /// Nothing at the connection's device path.
    case noSuchPort(String)
    /// The device path is not a character device (a tty, i2c-dev or spidev node).
    case notADevice(String)
    case permissionDenied(String)
    /// Another fpmod program (the running service, a `card read`) has the reader open.
    case inUse(NFCConnection)
    /// `nfc_init` returned no context (out of memory).
    case noContext
    /// `nfc_open` returned no device: no reader answered there.
    case noReader(NFCConnection)
    /// The reader stopped answering during `call` (libnfc's NFC_ETIMEOUT).
    case notAnswering(call: String, connection: NFCConnection)
    /// A reply was garbled (libnfc's NFC_EIO: bad checksum, wrong frame, noise).
    case garbled(call: String, connection: NFCConnection)
    /// Any other libnfc error code, with libnfc's text for it.
    case failed(call: String, code: Int32, message: String)
    /// A DESFire card answered `call` with an error status it should not give there.
    case desfireStatus(call: String, status: UInt8)
    /// libfreefare refused a DESFire answer (its MAC or CRC did not verify, or it made no sense):
    /// a card at the edge of the field, or one that is not what it claims.
    case desfireAnswer(call: String)
    /// The reader was closed.
    case closed

    public var description: String {
        switch self {
        case let .invalidConnection(connstring, reason):
            "invalid libnfc connection string '\(connstring)': \(reason)"
        case let .noSuchPort(path):
            "no device at \(path): check the path; for a PN532 on a Pi's UART enable the serial port (raspi-config → Interface Options → Serial Port: login shell no, hardware yes) and use /dev/serial0"
        case let .notADevice(path):
            "\(path) is not a device node: name the reader's tty, i2c-dev or spidev node"
        case let .permissionDenied(path):
            "permission denied on \(path): add the user to the group that owns it (dialout for a UART, i2c or spi), then log in again"
        case let .inUse(connection):
            "the reader on \(connection.path ?? connection.connstring) is in use by another fpmod program (the running service, or a `fpmod card read`): stop it first (sudo systemctl stop fpmod), or watch the service's nfc and card events instead"
        case .noContext:
            "nfc_init failed (out of memory?)"
        case let .noReader(connection):
            "nfc_open(\(connection)): no reader answered. Check the PN532's interface switches (HSU/UART: both off; I2C: SEL0 on; SPI: SEL1 on), that its TX goes to the Pi's RX and back, its power, and that no other program (a getty on the port, ModemManager) holds the port"
        case let .notAnswering(call, connection):
            "\(call): the reader on \(connection.path ?? connection.connstring) stopped answering (timeout): check its power and wiring; power-cycle it"
        case let .garbled(call, connection):
            "\(call): garbled reply from the reader on \(connection.path ?? connection.connstring) (bad checksum or unexpected frame): present the card again, flat on the antenna; if it persists, check the wiring and that the baud rate matches"
        case let .failed(call, code, message):
            "\(call) failed: \(message) (libnfc error \(code))"
        case let .desfireStatus(call, status):
            "\(call): the DESFire card answered \(DESFireStatus.name(of: status)) (0x\(String(status, radix: 16, uppercase: true))): present the card again; if it persists, the card is not configured as expected"
        case let .desfireAnswer(call):
            "\(call): the DESFire card's answer did not verify (MAC or CRC): present the card again, flat on the antenna; a card that keeps failing may not be genuine"
        case .closed:
            "the NFC reader is closed"
        }
    }
}
