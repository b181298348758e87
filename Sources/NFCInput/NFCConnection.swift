/// A libnfc connection string, checked before anything is opened: `DRIVER[:PORT[:SPEED]]`,
/// such as `pn532_uart:/dev/ttyAMA0:115200`, `pn532_i2c:/dev/i2c-1`, `pn532_spi:/dev/spidev0.0`
/// or `pn53x_usb`.
public struct NFCConnection: Equatable, Sendable, CustomStringConvertible {
    public let driver: String
    /// The device file for the serial, I2C and SPI drivers; nil for USB and PC/SC ones.
    public let path: String?
    public let speed: Int?
    public let connstring: String

    /// libnfc 1.8's drivers, and whether the second field is a device path.
    static let drivers: [String: Bool] = [
        "pn532_uart": true, "pn532_i2c": true, "pn532_spi": true, "arygon": true, "acr122s": true,
        "pn53x_usb": false, "acr122_usb": false, "acr122_pcsc": false, "pn71xx": false,
    ]

    /// libnfc's NFC_BUFSIZE_CONNSTRING, terminating NUL included.
    static let maximumLength = 1023

    public init(_ connstring: String) throws(NFCError) {
        func invalid(_ reason: String) -> NFCError { .invalidConnection(connstring, reason: reason) }
        guard !connstring.isEmpty, connstring.utf8.count <= Self.maximumLength else {
            throw invalid("it must have 1 to \(Self.maximumLength) bytes")
        }
        guard connstring.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F }) else {
            throw invalid("it holds control characters")
        }
        let fields = connstring.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        let driver = fields[0]
        guard let takesPath = Self.drivers[driver] else {
            throw invalid("unknown driver '\(driver)'; use one of \(Self.drivers.keys.sorted().joined(separator: ", "))")
        }
        guard fields.count <= 3 else { throw invalid("expected DRIVER[:PORT[:SPEED]]") }
        var path: String?
        var speed: Int?
        if takesPath {
            guard fields.count >= 2, fields[1].hasPrefix("/") else {
                throw invalid("\(driver) needs the device path, e.g. \(driver):\(Self.examplePath(driver))")
            }
            path = fields[1]
            if fields.count == 3 {
                guard let value = Int(fields[2]), (1...10_000_000).contains(value) else {
                    throw invalid("the speed '\(fields[2])' is not a number of baud (UART) or Hz (SPI)")
                }
                speed = value
            }
        }
        self.driver = driver
        self.path = path
        self.speed = speed
        self.connstring = connstring
    }

    static func examplePath(_ driver: String) -> String {
        switch driver {
        case "pn532_i2c": "/dev/i2c-1"
        case "pn532_spi": "/dev/spidev0.0"
        default: "/dev/ttyAMA0"
        }
    }

    public var description: String { connstring }
}
