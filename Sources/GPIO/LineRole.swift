/// What a GPIO line does in the door lock. The raw values are the keys of a board preset's
/// `lines` object and the line names on the gpio-vm chip.
public enum LineRole: String, Sendable, Codable, CodingKeyRepresentable, CaseIterable {
    /// The module's touch / wake-up output (R503 "WAKEUP", AS608 "WAK"). Its polarity depends
    /// on the module family (R503/R307 active-low, AS608 active-high), not on the board.
    case touch
    /// The door strike or lock relay.
    case relay
    /// The request-to-exit button inside.
    case exitButton = "exit-button"
    /// The door's reed contact; active = door open.
    case doorContact = "door-contact"
    /// The enclosure's tamper switch; active = enclosure opened.
    case tamper
    case ledGreen = "led-green"
    case ledRed = "led-red"
    case buzzer
    /// Switches the module's main supply, so it can sleep between touches.
    case modulePower = "module-power"

    /// True for lines the program drives.
    public var isOutput: Bool {
        switch self {
        case .relay, .ledGreen, .ledRed, .buzzer, .modulePower: true
        case .touch, .exitButton, .doorContact, .tamper: false
        }
    }
}

/// Where one role is wired on a board.
public struct LineAssignment: Sendable, Codable, Equatable {
    /// The line offset on the chip (the BCM GPIO number on a Raspberry Pi).
    public var offset: Int
    /// The physical header pin, for people wiring it (documentation and validation only).
    public var pin: Int?
    /// The line's name on the chip; when the chip has a line of that name, it wins over `offset`.
    public var name: String?
    /// Active-low; nil means "decided elsewhere" (for `touch`: by the module family) or false.
    public var activeLow: Bool?
    /// Pull resistor for inputs; nil means as-is.
    public var bias: Bias?
    /// A hint for the person wiring it.
    public var note: String?

    public init(
        offset: Int, pin: Int? = nil, name: String? = nil, activeLow: Bool? = nil, bias: Bias? = nil,
        note: String? = nil
    ) {
        self.offset = offset
        self.pin = pin
        self.name = name
        self.activeLow = activeLow
        self.bias = bias
        self.note = note
    }

    /// The offset to request on `chip`: the named line if the chip has it, else `offset`.
    public func resolvedOffset(on chip: any GPIOChip) -> Int {
        name.flatMap { chip.lineOffset(named: $0) } ?? offset
    }
}
