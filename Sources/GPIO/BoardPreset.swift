import Foundation

/// A board's defaults: which serial port the module is on and which GPIO lines do what.
/// The documented source is `boards/<name>.json`; the same JSON is embedded in
/// `BuiltInBoardPresets.swift` so the binary works without the files.
public struct BoardPreset: Sendable, Codable, Equatable {
    /// Short identifier used on the command line (`rpi4`, `rpi5`, `usb-serial`, `gpio-vm`).
    public var name: String
    /// The board, in words.
    public var description: String
    /// The serial device the module is wired to.
    public var serialPort: String
    /// What to set up so the port works (UART enabling, console, clock caveats).
    public var serialNote: String?
    /// GPIO wiring; nil on boards without GPIO (a PC with a USB adapter).
    public var gpio: GPIOAssignment?
    /// How to wire it, one step per entry, with physical pin numbers.
    public var wiring: [String]
    /// Where an SPI image sensor goes; nil on boards without SPI (a PC with a USB adapter).
    public var spi: SPIWiring?

    public init(
        name: String, description: String, serialPort: String, serialNote: String? = nil,
        gpio: GPIOAssignment? = nil, wiring: [String] = [], spi: SPIWiring? = nil
    ) {
        self.name = name
        self.description = description
        self.serialPort = serialPort
        self.serialNote = serialNote
        self.gpio = gpio
        self.wiring = wiring
        self.spi = spi
    }

    /// The assignment for `role`, or nil when the board has no GPIO or leaves the role out.
    public func line(_ role: LineRole) -> LineAssignment? { gpio?.lines[role] }

    /// The name of the chip to open (see `GPIOAssignment.resolveChip`), or nil without GPIO.
    public func resolveChip(available: [GPIOChipInfo] = LibgpiodChip.listChips()) -> String? {
        gpio?.resolveChip(available: available)
    }
}

/// The GPIO part of a board preset.
public struct GPIOAssignment: Sendable, Codable, Equatable {
    /// The chip's usual kernel name, e.g. `gpiochip0`.
    public var chip: String
    /// The chip's label; when set, it finds the chip even if the kernel renumbered it
    /// (the Pi 5's header chip is gpiochip4 on kernels before 6.6.45, gpiochip0 after).
    public var chipLabel: String?
    /// The connector, for validation: `rpi-40pin` checks each pin against its BCM offset.
    public var header: String?
    /// How many lines the chip has (54 on the BCM2835/2837 and the Pi 5's RP1, 58 on the Pi 4's
    /// BCM2711), so an offset can be checked on a machine without the chip; nil = unknown.
    public var lineCount: Int?
    /// Line per role.
    public var lines: [LineRole: LineAssignment]

    public init(chip: String, chipLabel: String? = nil, header: String? = nil, lineCount: Int? = nil,
                lines: [LineRole: LineAssignment]) {
        self.chip = chip
        self.chipLabel = chipLabel
        self.header = header
        self.lineCount = lineCount
        self.lines = lines
    }

    /// The chip to open: `chip` when it carries `chipLabel` (or no label is set or seen);
    /// otherwise the first chip with that label.
    public func resolveChip(available: [GPIOChipInfo]) -> String {
        guard let chipLabel else { return chip }
        if available.contains(where: { $0.name == chip && $0.label == chipLabel }) { return chip }
        return available.first { $0.label == chipLabel }?.name ?? chip
    }
}
