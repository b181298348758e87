extension BoardPreset {
    /// Everything wrong with the preset, each naming the key; empty when it is usable.
    public func problems() -> [String] {
        var problems: [String] = []
        if name.isEmpty || !name.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "-" }) {
            problems.append("name: '\(name)' must be lowercase letters, digits and '-'")
        }
        if !serialPort.hasPrefix("/dev/") {
            problems.append("serialPort: '\(serialPort)' must be a device path under /dev/")
        }
        problems += spiProblems()
        guard let gpio else { return problems }
        if gpio.chip.isEmpty { problems.append("gpio.chip: must name a chip, e.g. gpiochip0") }
        if let header = gpio.header, header != RaspberryPiHeader.name {
            problems.append("gpio.header: '\(header)' is unknown; the only one is \(RaspberryPiHeader.name)")
        }
        if let count = gpio.lineCount, count < 1 { problems.append("gpio.lineCount: \(count) must be at least 1") }
        var offsets: [Int: LineRole] = [:]
        var pins: [Int: LineRole] = [:]
        for role in LineRole.allCases {
            guard let line = gpio.lines[role] else { continue }
            let key = "gpio.lines.\(role.rawValue)"
            if line.offset < 0 { problems.append("\(key).offset: \(line.offset) is negative") }
            if let beyond = gpio.lineCountProblem(offset: line.offset) { problems.append("\(key).offset: " + beyond) }
            if let other = offsets.updateValue(role, forKey: line.offset) {
                problems.append("\(key).offset: \(line.offset) is also \(other.rawValue)")
            }
            if let pin = line.pin, let other = pins.updateValue(role, forKey: pin) {
                problems.append("\(key).pin: \(pin) is also \(other.rawValue)")
            }
            if role.isOutput, let bias = line.bias, bias != .asIs {
                problems.append("\(key).bias: outputs take no pull resistor")
            }
            if gpio.header == RaspberryPiHeader.name {
                problems += RaspberryPiHeader.problems(key: key, offset: line.offset, pin: line.pin)
            }
        }
        return problems
    }
}

extension GPIOAssignment {
    /// Why `offset` cannot be a line of this board's chip (beyond its `lineCount`), or nil.
    public func lineCountProblem(offset: Int) -> String? {
        guard let lineCount, offset >= lineCount else { return nil }
        return "\(offset) is beyond \(chip)'s \(lineCount) lines\(chipLabel.map { " (\($0))" } ?? ""); use 0 to \(lineCount - 1)"
    }

    /// Why a line at `offset` cannot be wired on this board: beyond the chip's line count, or,
    /// on a Raspberry Pi, a line of the chip that is not on the 40-pin header. Starts with
    /// `key`, the offset's key path; nil when it can be wired.
    public func wiringProblem(key: String, offset: Int) -> String? {
        if let beyond = lineCountProblem(offset: offset) { return "\(key): " + beyond }
        guard header == RaspberryPiHeader.name, RaspberryPiHeader.pinOfGPIO[offset] == nil else { return nil }
        return "\(key): GPIO\(offset) is a line of \(chip) but not on the 40-pin header, so nothing can be wired to it; "
            + "use a header GPIO, BCM 0 to 27"
    }
}

/// The Raspberry Pi 40-pin header (every model since the B+), for checking presets.
enum RaspberryPiHeader {
    static let name = "rpi-40pin"

    /// Physical pin of each BCM GPIO on the header.
    static let pinOfGPIO: [Int: Int] = [
        2: 3, 3: 5, 4: 7, 14: 8, 15: 10, 17: 11, 18: 12, 27: 13, 22: 15, 23: 16, 24: 18,
        10: 19, 9: 21, 25: 22, 11: 23, 8: 24, 7: 26, 0: 27, 1: 28, 5: 29, 6: 31, 12: 32,
        13: 33, 19: 35, 16: 36, 26: 37, 20: 38, 21: 40,
    ]

    static func problems(key: String, offset: Int, pin: Int?) -> [String] {
        guard let expected = pinOfGPIO[offset] else {
            return ["\(key).offset: GPIO\(offset) is not on the 40-pin header (BCM 0–27)"]
        }
        var problems: [String] = []
        if offset == 14 || offset == 15 {
            problems.append("\(key).offset: GPIO\(offset) (pin \(expected)) is the module's UART")
        }
        if let pin, pin != expected {
            problems.append("\(key).pin: GPIO\(offset) is pin \(expected), not \(pin)")
        }
        return problems
    }
}
