import Foundation

/// An umockdev SPI replay script (`umockdev-run -i /dev/spidev0.0=FILE`): one line per transfer
/// chunk, `T` starting one with chip select newly asserted, `C` continuing with it still held,
/// `W hex` what the program must send (a mismatch fails the ioctl with ENOMSG), `R hex` what it
/// receives. Running past the end fails the ioctl with ENOENT. (Format: umockdev's
/// src/umockdev-spi.vala.)
struct SpidevScript {
    private(set) var lines = ["@DEV /dev/spidev0.0 (SPI)"]

    mutating func comment(_ text: String) { lines.append("# " + text) }

    /// A line as it is (for scripts edited by a test).
    mutating func raw(_ line: String) { lines.append(line) }

    /// A one-byte command: its own message.
    mutating func command(_ byte: UInt8) { lines.append("TW " + hex([byte])) }

    /// A register read: the address, then `reply` with chip select held.
    mutating func read(_ register: UInt8, reply: [UInt8]) {
        lines.append("TW " + hex([register]))
        lines.append("CR " + hex(reply))
    }

    /// A register write: the address, then `data` with chip select held.
    mutating func write(_ register: UInt8, _ data: [UInt8]) {
        lines.append("TW " + hex([register]))
        lines.append("CW " + hex(data))
    }

    /// The image read: command C4 and a dummy byte, then the pixels streamed row by row.
    mutating func image(_ pixels: [UInt8], rowLength: Int) {
        lines.append("TW c400")
        var offset = 0
        while offset < pixels.count {
            lines.append("CR " + hex(Array(pixels[offset..<min(offset + rowLength, pixels.count)])))
            offset += rowLength
        }
    }

    var text: String { lines.joined(separator: "\n") + "\n" }

    private func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}

/// The sysfs and /dev description umockdev builds its testbed from (`-d FILE`): a spidev node
/// as the Raspberry Pi's spi-bcm2835 controller and the spidev driver register it.
enum SpidevTestbed {
    static let description = """
        P: /devices/platform/soc/fe204000.spi/spi_master/spi0/spi0.0/spidev/spidev0.0
        N: spidev0.0
        E: DEVNAME=/dev/spidev0.0
        E: MAJOR=153
        E: MINOR=0
        E: SUBSYSTEM=spidev
        A: dev=153:0\\n

        P: /devices/platform/soc/fe204000.spi/spi_master/spi0/spi0.0
        E: DRIVER=spidev
        E: MODALIAS=spi:spidev
        E: SUBSYSTEM=spi
        A: modalias=spi:spidev\\n

        P: /devices/platform/soc/fe204000.spi/spi_master/spi0
        E: SUBSYSTEM=spi_master

        P: /devices/platform/soc/fe204000.spi
        E: DRIVER=spi-bcm2835
        E: SUBSYSTEM=platform

        """
}
