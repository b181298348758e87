/// A byte stream with deadlines: what the fingerprint driver talks to. A termios serial port
/// today, an in-memory pair in tests, perhaps spidev or USB later — nothing above the driver
/// knows which, so this protocol lives in its own target, apart from termios. Errors are the
/// implementation's (a `SerialPortError` for the serial port).
public protocol ByteTransport: AnyObject {
    /// Writes the whole frame at once (one write-all per frame).
    func send(_ bytes: [UInt8]) throws
    /// Waits until at least one byte is available or `deadline` passes, then returns up to
    /// `maxCount` bytes. `[]` means the deadline passed with nothing received.
    func receive(maxCount: Int, deadline: ContinuousClock.Instant) throws -> [UInt8]
    /// Drops everything received but not yet read (stale acks, the boot byte 0x55 …).
    func discardInput() throws
    /// The current line speed in bits per second.
    var baudRate: Int { get }
    /// Changes the line speed; see `BaudRate.supported` for what is allowed.
    func setBaudRate(_ baud: Int) throws
    /// Where the bytes go, for messages: e.g. "/dev/ttyAMA0 @ 57600".
    var description: String { get }
    /// Where the bytes go without the line speed: "/dev/ttyAMA0", for messages about every rate.
    var portName: String { get }
    /// Releases the device (the serial port's lock, the descriptor). Idempotent; after it,
    /// every call throws. Whoever opened a module closes it through this, never by downcasting.
    func close()
}

extension ByteTransport {
    public var portName: String { description }
}
