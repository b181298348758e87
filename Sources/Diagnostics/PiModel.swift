/// The Raspberry Pi a device-tree model string names, reduced to what decides the UART and GPIO
/// setup: which preset fits, whether the primary UART is the mini UART, whether it is a Pi 5.
public enum PiModel: Sendable, Equatable {
    /// Pi 3 family (3 B/B+/A+, CM3): mini UART on the pins while Bluetooth has the PL011.
    case pi3
    /// Pi 4 B, Pi 400, CM4: as the Pi 3.
    case pi4
    /// Zero 2 W: as the Pi 3.
    case zero2W
    /// Pi 5, Pi 500, CM5: RP1 UARTs, no mini UART, serial0 is the debug connector.
    case pi5
    /// A Raspberry Pi fpmod cannot run on (Pi 1, 2, Zero/Zero W: no 64-bit Swift toolchain).
    case unsupported(String)
    /// Not a Raspberry Pi (a PC, another board) — `model` is the device-tree text when there is one.
    case notAPi(model: String?)

    /// Reads `/proc/device-tree/model` text, e.g. "Raspberry Pi 4 Model B Rev 1.4".
    public init(deviceTreeModel: String?) {
        guard let model = deviceTreeModel?.trimmingNULsAndSpaces, !model.isEmpty else {
            self = .notAPi(model: nil)
            return
        }
        guard model.hasPrefix("Raspberry Pi") else {
            self = .notAPi(model: model)
            return
        }
        let rest = model.dropFirst("Raspberry Pi".count).trimmingPrefix(" ")
        func starts(_ prefixes: String...) -> Bool { prefixes.contains { rest.hasPrefix($0) } }
        if starts("5 ", "500", "Compute Module 5") || rest == "5" {
            self = .pi5
        } else if starts("4 ", "400", "Compute Module 4") || rest == "4" {
            self = .pi4
        } else if starts("3 ", "Compute Module 3") || rest == "3" {
            self = .pi3
        } else if starts("Zero 2") {
            self = .zero2W
        } else {
            self = .unsupported(model)
        }
    }

    public var isSupportedPi: Bool {
        switch self {
        case .pi3, .pi4, .zero2W, .pi5: true
        default: false
        }
    }

    /// Boards whose pins 8/10 default to the mini UART (`ttyS0`).
    var hasMiniUARTOnPins: Bool { self == .pi3 || self == .pi4 || self == .zero2W }

    /// The built-in board preset that fits (`BoardPreset.builtIn` names).
    public var presetName: String {
        switch self {
        case .pi3: "rpi3"
        case .pi4: "rpi4"
        case .zero2W: "rpi-zero2w"
        case .pi5: "rpi5"
        case .unsupported, .notAPi: "usb-serial"
        }
    }

    /// config.txt section filters (`[pi4]`) that apply to this board.
    var configFilters: Set<String> {
        switch self {
        case .pi3: ["pi3", "pi3+", "cm3", "cm3+"]
        case .pi4: ["pi4", "pi400", "cm4", "cm4s"]
        case .zero2W: ["pi0", "pi02"]
        case .pi5: ["pi5", "pi500", "cm5"]
        case .unsupported, .notAPi: []
        }
    }
}

extension String {
    /// The device-tree strings end in a NUL byte.
    var trimmingNULsAndSpaces: String {
        var text = Substring(self)
        while let last = text.last, last == "\0" || last.isWhitespace { text = text.dropLast() }
        while let first = text.first, first == "\0" || first.isWhitespace { text = text.dropFirst() }
        return String(text)
    }
}
