/// Where an SPI image sensor (FPC1020) goes on a board: the spidev node, the bus pins (for
/// people wiring it and for checks: they are not requested as GPIO lines, the SPI controller
/// owns them), and the sensor's IRQ and reset lines, which are GPIO lines of the preset's chip.
public struct SPIWiring: Sendable, Codable, Equatable {
    /// The spidev node, e.g. /dev/spidev0.0 (bus 0, chip select 0).
    public var device: String
    public var mosi: LineAssignment
    public var miso: LineAssignment
    public var sclk: LineAssignment
    /// The chip select `device` uses (CE0 for spidevB.0, CE1 for spidevB.1).
    public var chipSelect: LineAssignment
    /// The sensor's interrupt output (active high: finger down, image ready, reset done).
    public var irq: LineAssignment
    /// The sensor's reset input (active low).
    public var reset: LineAssignment
    /// What to set up so the bus works (dtparam=spi=on, the spi group, spidev.bufsiz).
    public var note: String?
    /// How to wire it, one step per entry, with physical pin numbers.
    public var wiring: [String]

    public init(
        device: String, mosi: LineAssignment, miso: LineAssignment, sclk: LineAssignment,
        chipSelect: LineAssignment, irq: LineAssignment, reset: LineAssignment, note: String? = nil,
        wiring: [String] = []
    ) {
        self.device = device
        self.mosi = mosi
        self.miso = miso
        self.sclk = sclk
        self.chipSelect = chipSelect
        self.irq = irq
        self.reset = reset
        self.note = note
        self.wiring = wiring
    }

    /// Every line by its key in the preset, bus pins first.
    public var namedLines: [(key: String, line: LineAssignment)] {
        [("mosi", mosi), ("miso", miso), ("sclk", sclk), ("chipSelect", chipSelect), ("irq", irq), ("reset", reset)]
    }

    /// SPI0 of the Raspberry Pi 40-pin header: MOSI GPIO10, MISO GPIO9, SCLK GPIO11, CE0 GPIO8,
    /// CE1 GPIO7 (BCM numbers; the same on the Pi 5's RP1).
    public static let raspberryPiSPI0: [String: Int] = ["mosi": 10, "miso": 9, "sclk": 11, "ce0": 8, "ce1": 7]
}

extension BoardPreset {
    /// Everything wrong with the `spi` section, each naming the key.
    func spiProblems() -> [String] {
        guard let spi else { return [] }
        var problems: [String] = []
        if !spi.device.hasPrefix("/dev/spidev") {
            problems.append("spi.device: '\(spi.device)' must be a spidev node such as /dev/spidev0.0")
        }
        let expected = SPIWiring.raspberryPiSPI0
        if gpio?.header == RaspberryPiHeader.name {
            let ce = spi.device.hasSuffix(".1") ? "ce1" : "ce0"
            for (key, wanted) in [("mosi", "mosi"), ("miso", "miso"), ("sclk", "sclk"), ("chipSelect", ce)] {
                let line = spi.namedLines.first { $0.key == key }!.line
                if line.offset != expected[wanted] {
                    problems.append("spi.\(key).offset: SPI0 \(wanted.uppercased()) is GPIO\(expected[wanted]!), not GPIO\(line.offset)")
                }
            }
            for (key, line) in spi.namedLines {
                problems += RaspberryPiHeader.problems(key: "spi.\(key)", offset: line.offset, pin: line.pin)
            }
        }
        for (key, line) in [("irq", spi.irq), ("reset", spi.reset)] {
            if let role = gpio?.lines.first(where: { $0.value.offset == line.offset })?.key {
                problems.append("spi.\(key).offset: GPIO\(line.offset) is also gpio.lines.\(role.rawValue)")
            }
            if let bus = spi.namedLines.prefix(4).first(where: { $0.line.offset == line.offset }) {
                problems.append("spi.\(key).offset: GPIO\(line.offset) is the SPI \(bus.key) pin")
            }
            if Set(expected.values).contains(line.offset) {
                problems.append("spi.\(key).offset: GPIO\(line.offset) belongs to SPI0 (GPIO7–11)")
            }
        }
        if spi.irq.offset == spi.reset.offset {
            problems.append("spi.reset.offset: GPIO\(spi.reset.offset) is also spi.irq")
        }
        return problems
    }
}
