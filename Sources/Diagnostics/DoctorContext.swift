/// Facts every check needs, derived once: the board, what kind of port the module is on, and
/// which ttys a console or getty must stay away from.
struct DoctorContext: Sendable {
    enum PortKind: Sendable, Equatable {
        /// No port given and none suggested by the board.
        case none
        /// A UART of the Pi's pins (ttyAMA*, ttyS*, serial0/1).
        case piUART
        /// A USB-serial adapter (ttyUSB*, ttyACM*).
        case usbAdapter
        /// The --sim pseudo-terminal.
        case simulator
        /// Anything else (a PC's ttyS*, a pty from `fpmod sim --link` …).
        case other
    }

    let facts: DoctorFacts
    let board: PiModel
    let portKind: PortKind

    init(_ facts: DoctorFacts) {
        self.facts = facts
        board = PiModel(deviceTreeModel: facts.deviceTreeModel)
        portKind = Self.kind(of: facts.port, board: board)
    }

    private static func kind(of port: PortFacts?, board: PiModel) -> PortKind {
        guard let port else { return .none }
        if port.source == .simulator { return .simulator }
        let name = port.deviceName
        if name.hasPrefix("ttyUSB") || name.hasPrefix("ttyACM") { return .usbAdapter }
        if board.isSupportedPi, name.hasPrefix("ttyAMA") || name.hasPrefix("ttyS") || name.hasPrefix("serial") {
            return .piUART
        }
        return .other
    }

    /// Whether the Pi's own UART setup matters: a supported Pi whose module is (or may be) on the pins.
    var piUARTMatters: Bool { board.isSupportedPi && (portKind == .piUART || portKind == .none) }

    /// The tty wired to pins 8/10 as things stand: the Pi 5's ttyAMA0; on the others whatever
    /// serial0 points to (ttyS0 when it does not exist yet).
    var pinsUART: String? {
        switch board {
        case .pi5: "ttyAMA0"
        case .pi3, .pi4, .zero2W: facts.serialAliases["serial0"] ?? "ttyS0"
        default: nil
        }
    }

    /// The ttys a kernel console or a getty must not use: the module's port, and the pins' UART
    /// when the module is (or may be) on the pins.
    var guardedTTYs: Set<String> {
        var names: Set<String> = []
        if let port = facts.port, portKind != .simulator, !port.isPseudoTerminal { names.insert(port.deviceName) }
        if piUARTMatters, let pins = pinsUART { names.insert(pins) }
        return names
    }

    /// `serial0` → its target; other names unchanged.
    func resolveAlias(_ name: String) -> String {
        if let target = facts.serialAliases[name] { return target }
        // Without the symlink, the firmware's own default mapping.
        if name == "serial0" {
            switch board {
            case .pi5: return "ttyAMA10"
            case .pi3, .pi4, .zero2W: return "ttyS0"
            default: return name
            }
        }
        return name
    }

    /// Where config.txt lives on this system (for fix lines).
    var configPath: String { facts.bootConfig?.path ?? "/boot/firmware/config.txt" }
    var cmdlinePath: String { facts.bootCmdline?.path ?? "/boot/firmware/cmdline.txt" }
}
