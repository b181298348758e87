import GPIO

extension DoctorChecks {
    /// SPI for an image sensor (FPC1020): the interface switched on (dtparam=spi=on), the
    /// spidev node there and open for this user, and the preset's IRQ and reset lines. Without
    /// a configured SPI sensor (--spi / FPMOD_SPI) these only inform: UART modules need none of it.
    static func spi(_ context: DoctorContext) -> [DoctorCheck] {
        [spiInterface(context), spiDevice(context), spiLines(context)]
    }

    private static var spiTitle: String { "SPI interface" }

    static func spiInterface(_ context: DoctorContext) -> DoctorCheck {
        let facts = context.facts.spi
        let missing: DoctorVerdict = facts.sensorConfigured ? .problem : .skipped
        let nodes = facts.nodes.map { shortName($0.path) }.joined(separator: ", ")
        guard context.board.isSupportedPi else {
            if !facts.nodes.isEmpty { return DoctorCheck("spi.interface", spiTitle, .ok, "\(nodes) present.") }
            return DoctorCheck("spi.interface", spiTitle, missing,
                               "No /dev/spidev* on this machine: the kernel has no SPI controller with a spidev device"
                                   + (facts.sensorConfigured ? "." : " (none needed for UART modules)."),
                               fix: facts.sensorConfigured ? "Wire the sensor to a board with SPI (a Raspberry Pi with dtparam=spi=on in config.txt), or use a UART module." : nil)
        }
        let enabled = context.facts.bootConfig.map { BootConfig(text: $0.text, board: context.board) }
        let configured = enabled?.parameterIsOn("spi") ?? false
        switch (configured, facts.nodes.isEmpty) {
        case (true, false):
            return DoctorCheck("spi.interface", spiTitle, .ok, "dtparam=spi=on in \(context.configPath); \(nodes) present.")
        case (false, false):
            return DoctorCheck("spi.interface", spiTitle, .ok, "\(nodes) present (enabled by an overlay, not dtparam=spi=on).")
        case (true, true):
            return DoctorCheck("spi.interface", spiTitle, facts.sensorConfigured ? .problem : .warning,
                               "dtparam=spi=on is in \(context.configPath), but no /dev/spidev* exists.",
                               fix: "Reboot: config.txt is read at boot. If the nodes are still missing, check `lsmod | grep spidev` and that no overlay disables spi0.")
        case (false, true):
            return DoctorCheck("spi.interface", spiTitle, missing,
                               "SPI is off: no dtparam=spi=on in \(context.configPath) and no /dev/spidev*"
                                   + (facts.sensorConfigured ? "." : " (needed only for an SPI sensor such as the FPC1020)."),
                               fix: "Add dtparam=spi=on to \(context.configPath) (or raspi-config → Interface Options → SPI) and reboot; the sensor is then on /dev/spidev0.0 (CE0).")
        }
    }

    static func spiDevice(_ context: DoctorContext) -> DoctorCheck {
        let title = "SPI device"
        let facts = context.facts.spi
        let preset = BoardPreset.builtIn.first { $0.name == context.board.presetName }
        guard let path = facts.requestedDevice ?? (context.board.isSupportedPi ? preset?.spi?.device : nil) else {
            return DoctorCheck("spi.device", title, .skipped, "no SPI sensor configured (--spi or FPMOD_SPI).")
        }
        let verdict: DoctorVerdict = facts.sensorConfigured ? .problem : .skipped
        guard let node = facts.nodes.first(where: { $0.path == path }) else {
            let others = facts.nodes.isEmpty ? "no spidev node exists" : "present: " + facts.nodes.map(\.path).joined(separator: ", ")
            return DoctorCheck("spi.device", title, verdict, "\(path) does not exist (\(others)).",
                               fix: facts.nodes.isEmpty ? "Enable SPI first (see SPI interface)." : "Give the node of the sensor's chip select: /dev/spidev0.0 for CE0 (pin 24), /dev/spidev0.1 for CE1 (pin 26).")
        }
        let owner = "\(node.owner):\(node.group) \(node.modeText)"
        let user = context.facts.user
        guard node.readWritable else {
            let group = node.mode & 0o060 == 0o060 && node.group != "root" ? node.group : "spi"
            return DoctorCheck("spi.device", title, facts.sensorConfigured ? .problem : .warning,
                               "\(path) is \(owner); \(user.name) may not open it.", fix: groupFix(group: group, user: user))
        }
        let image = 192 * 192 + 2
        let buffer = facts.bufferSize ?? 4096
        let messages = (image + buffer - 1) / buffer
        let split = messages == 1
            ? "spidev's buffer (\(buffer) bytes) takes a 192×192 image in one message."
            : "spidev's buffer is \(buffer) bytes: an image takes \(messages) messages (chip select held between them); spidev.bufsiz=65536 in \(context.cmdlinePath) makes it one."
        return DoctorCheck("spi.device", title, .ok, "\(path) is \(owner), open for \(user.name); \(split)")
    }

    static func spiLines(_ context: DoctorContext) -> DoctorCheck {
        let title = "Sensor IRQ and reset"
        guard context.board.isSupportedPi,
              let preset = BoardPreset.builtIn.first(where: { $0.name == context.board.presetName }),
              let wiring = preset.spi
        else {
            return DoctorCheck("spi.lines", title, .skipped, "no board preset with SPI wiring for this machine (give --irq-line and --reset-line to fpmod sensor).")
        }
        func describe(_ name: String, _ line: LineAssignment) -> String {
            "\(name) GPIO\(line.offset)" + (line.pin.map { " (pin \($0))" } ?? "")
        }
        let bus = [describe("MOSI", wiring.mosi), describe("MISO", wiring.miso), describe("SCLK", wiring.sclk), describe("CS", wiring.chipSelect)]
        let sensor = [describe("IRQ", wiring.irq), describe("reset", wiring.reset)]
        let seen = "\(preset.name) preset: \(bus.joined(separator: ", ")); \(sensor.joined(separator: ", "))."
        let chips = context.facts.gpioChips
        let chipName = preset.gpio?.resolveChip(available: chips)
        guard let chip = chips.first(where: { $0.name == chipName }) else {
            return DoctorCheck("spi.lines", title, .skipped, seen + " The header chip was not found (see GPIO chip).")
        }
        let outside = [wiring.irq, wiring.reset].filter { $0.offset >= chip.lineCount }
        if !outside.isEmpty {
            return DoctorCheck("spi.lines", title, .problem, seen + " GPIO\(outside[0].offset) is beyond \(chip.name)'s \(chip.lineCount) lines.",
                               fix: "Pick the preset of this board, or give --irq-line and --reset-line.")
        }
        return DoctorCheck("spi.lines", title, .ok, seen)
    }
}
