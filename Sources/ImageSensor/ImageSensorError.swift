import GPIO
import Imaging
import SPI

/// Why an image sensor could not be used. Each description names the problem and the fix.
public enum ImageSensorError: Error, Equatable, Sendable, CustomStringConvertible {
    case spi(SPIError)
    case gpio(GPIOError)
    /// The hardware-id register held `seen`; `known` names the chip when it is one of FPC's.
    case wrongHardwareID(seen: UInt16, expected: UInt16, known: String?)
    /// After a reset the sensor did not report its power-on interrupt (0xFF). `seen` is what
    /// the interrupt register held, nil when the IRQ line never rose.
    case noResetInterrupt(seen: UInt8?, usedResetLine: Bool)
    /// The IRQ line stayed high after the interrupt register was cleared.
    case interruptStuck
    /// A command's interrupt did not come in time.
    case interruptTimeout(waitingFor: String)
    /// The interrupt register reported something else than the command's completion.
    case unexpectedInterrupt(waitingFor: String, seen: UInt8)
    /// The sensor flagged an error (interrupt bit 2); `code` is its error register.
    case sensorError(code: UInt8)
    /// The captured image holds no usable finger.
    case noFinger(FingerCoverage.Result)
    /// A simulated sensor found no PNG images in `folder` (DIR/NAME for finger NAME, or DIR).
    case noImages(folder: String)
    /// A simulated sensor could not read one of its image files.
    case unreadableImage(path: String, reason: String)
    /// The socket of a sensor served by another process (`fpmod sim --profile fpc1020 --link`)
    /// could not be used.
    case sensorLink(path: String, problem: String)

    public var description: String {
        switch self {
        case let .spi(error):
            return error.description
        case let .gpio(error):
            return error.description
        case let .wrongHardwareID(seen, expected, known):
            let hex = hexText(seen, digits: 4)
            let wanted = hexText(expected, digits: 4)
            if seen == 0x0000 || seen == 0xFFFF {
                return "The sensor's hardware-id register read \(hex): nothing drives MISO. Check the wiring "
                    + "(MISO GPIO9 pin 21, MOSI GPIO10 pin 19, SCLK GPIO11 pin 23, CE0 GPIO8 pin 24 for /dev/spidev0.0), "
                    + "the 3.3 V supply and ground, and that the reset line is not held low."
            }
            if let known {
                return "The sensor reports hardware id \(hex), which is an \(known), not the FPC1020A (\(wanted)) "
                    + "this driver supports. Use an FPC1020A/AM sensor."
            }
            return "The sensor reports hardware id \(hex); an FPC1020A reports \(wanted). Check that an FPC1020 "
                + "is wired to this chip select, and lower the SPI speed (--speed 1000000) in case long wires garble bits."
        case let .noResetInterrupt(seen, usedResetLine):
            let what = seen.map { "its interrupt register held \(hexText($0, digits: 2)), not 0xFF" }
                ?? "its IRQ line never rose"
            let how = usedResetLine ? "the reset line" : "a soft reset (no reset line configured)"
            return "After \(how) the sensor did not report power-on: \(what). Check the RST and IRQ wiring "
                + "and the 3.3 V supply; with a reset line, check its GPIO in the board preset."
        case .interruptStuck:
            return "The sensor's IRQ line stays high after its interrupt register was cleared. Check that the "
                + "configured IRQ GPIO is the sensor's IRQ pin and that nothing else drives it."
        case let .interruptTimeout(what):
            return "The sensor did not signal \(what) in time. Check the IRQ wiring (or configure no IRQ line "
                + "to poll the interrupt register), then reset the sensor."
        case let .unexpectedInterrupt(what, seen):
            return "Waiting for \(what) the sensor reported interrupt \(hexText(seen, digits: 2)). Reset the sensor; if it "
                + "repeats, check the wiring and lower the SPI speed."
        case let .sensorError(code):
            return "The sensor reported an error (error register \(hexText(code, digits: 2)); bit 0 = FIFO underflow: "
                + "the image was read too slowly or too early). Reset the sensor and try again."
        case let .noFinger(result):
            return "The image holds no usable finger: \(result). Place the whole fingertip flat on the sensor "
                + "and hold it still; clean the sensor if it is smeared."
        case let .noImages(folder):
            return "No PNG images in \(folder): a simulated finger NAME needs a folder DIR/NAME holding one or more "
                + ".png files (any size; cropped or scaled to 192×192). Create it, or pick a finger that has one."
        case let .unreadableImage(path, reason):
            return "Cannot use the simulated sensor's image \(path): \(reason)"
        case let .sensorLink(path, problem):
            return "The simulated sensor at \(path) cannot be used: \(problem). Start it with "
                + "`fpmod sim --profile fpc1020 --link \(path)` and check the path."
        }
    }
}

/// "0x020A": upper-case hex, zero-padded to `digits`.
func hexText<Value: BinaryInteger>(_ value: Value, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
}
