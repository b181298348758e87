import Foundation

/// The parts of the Pi firmware's config.txt that decide the UART on pins 8/10, read the way the
/// firmware does: later lines win, and `[filter]` sections for other boards are ignored.
struct BootConfig: Sendable, Equatable {
    /// `enable_uart=`: nil when absent.
    var enableUART: Bool?
    /// `dtoverlay=` names in order (`disable-bt`, `uart0-pi5` …).
    var overlays: [String] = []
    /// `dtparam=` settings (`uart0` → `on`); a bare `dtparam=uart0` means on.
    var parameters: [String: String] = [:]

    init(text: String, board: PiModel) {
        var applies = true
        let known = Self.boardFilters
        for rawLine in text.split(whereSeparator: \.isNewline) {
            var line = Substring(rawLine)
            if let hash = line.firstIndex(of: "#") { line = line[..<hash] }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty { continue }
            if trimmed.hasPrefix("["), trimmed.hasSuffix("]") {
                let filter = trimmed.dropFirst().dropLast().lowercased()
                if filter == "all" {
                    applies = true
                } else if filter == "none" {
                    applies = false
                } else if known.contains(filter) {
                    applies = board.configFilters.contains(filter)
                }
                // Other filters (EDID=, gpio4=1, tryboot …) depend on things we cannot see: assume they apply.
                continue
            }
            guard applies, let equals = trimmed.firstIndex(of: "=") else { continue }
            let key = trimmed[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            switch key {
            case "enable_uart":
                enableUART = value == "1"
            case "dtoverlay":
                // `dtoverlay=name,param=value`; the old `pi3-` prefixes are aliases.
                let name = value.split(separator: ",").first.map(String.init) ?? value
                let plain = name.hasPrefix("pi3-") ? String(name.dropFirst(4)) : name
                if !plain.isEmpty { overlays.append(plain) }
            case "dtparam":
                for setting in value.split(separator: ",") {
                    let parts = setting.split(separator: "=", maxSplits: 1)
                    let name = parts[0].trimmingCharacters(in: .whitespaces)
                    parameters[name] = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "on"
                }
            default:
                continue
            }
        }
    }

    /// Whether `dtparam=<name>` is switched on.
    func parameterIsOn(_ name: String) -> Bool {
        guard let value = parameters[name]?.lowercased() else { return false }
        return ["on", "1", "true", "yes", "okay"].contains(value)
    }

    /// The overlay that puts the PL011 on pins 8/10 (Pi 3/4/Zero 2 W), if any.
    var pl011Overlay: String? { overlays.last { $0 == "disable-bt" || $0 == "miniuart-bt" } }

    /// Pi 5: uart0 on pins 8/10 is enabled.
    var enablesPi5UART0: Bool { parameterIsOn("uart0") || overlays.contains("uart0-pi5") || overlays.contains("uart0") }

    /// Section filters that name a board; the ones a board does not match switch lines off.
    static let boardFilters: Set<String> = [
        "pi1", "pi2", "pi3", "pi3+", "pi4", "pi400", "pi5", "pi500", "pi0", "pi0w", "pi02",
        "cm1", "cm3", "cm3+", "cm4", "cm4s", "cm5",
    ]
}

/// `console=` entries of a kernel command line.
enum KernelCommandLine {
    /// The device of each `console=` entry (`console=serial0,115200` → `serial0`).
    static func consoles(_ commandLine: String) -> [String] {
        commandLine.split(whereSeparator: \.isWhitespace).compactMap { token in
            guard token.hasPrefix("console=") else { return nil }
            let value = token.dropFirst("console=".count)
            return value.split(separator: ",").first.map(String.init)
        }
    }
}
