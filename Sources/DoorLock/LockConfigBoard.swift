import FingerprintProtocol
import GPIO

/// One line the service will request: its role, where it is and how.
public struct ResolvedLine: Sendable, Equatable {
    public var role: LineRole
    public var offset: Int
    public var name: String?
    public var activeLow: Bool
    public var bias: Bias
    /// The kernel debouncer's period (0: none).
    public var debounceMicroseconds: Int = 0
}

extension LockConfig {
    /// The board preset named by `board` (a built-in or file name, or a path to a preset file).
    public func loadBoard() throws(LockConfigError) -> BoardPreset {
        do {
            return board.contains("/") ? try BoardPreset.load(path: board) : try BoardPreset.load(name: board)
        } catch {
            throw LockConfigError(source: "board", problems: ["board: \(error.description)"])
        }
    }

    /// The serial port to open: the config's, else the preset's.
    public func serialPort(preset: BoardPreset) -> String { serialPort ?? preset.serialPort }

    /// The chip to open: the config's, else the preset's (found by label when renumbered).
    public func chipName(preset: BoardPreset, available: [GPIOChipInfo] = LibgpiodChip.listChips()) -> String? {
        gpio.chip ?? preset.resolveChip(available: available)
    }

    /// The preset's lines with the config's overrides; roles switched off (null) are left out.
    /// `family` decides the touch polarity unless the config sets it.
    public func resolvedLines(preset: BoardPreset, family detected: ModuleFamily?) -> [LineRole: ResolvedLine] {
        var result: [LineRole: ResolvedLine] = [:]
        for role in LineRole.allCases {
            let base = preset.line(role)
            let override: LineOverride?
            switch gpio.lines[role] {
            case .some(.none): continue
            case .some(.some(let value)): override = value
            case .none: override = nil
            }
            guard let offset = override?.offset ?? base?.offset else { continue }
            // A new offset without a new name drops the preset's name, which would otherwise win.
            let name = override?.name ?? (override?.offset == nil ? base?.name : nil)
            var activeLow = override?.activeLow ?? base?.activeLow ?? false
            if role == .touch {
                activeLow = touchActiveLow ?? override?.activeLow ?? base?.activeLow
                    ?? ((family ?? detected) == .as608 ? false : true)
            }
            let bias = role.isOutput ? Bias.asIs : (override?.bias ?? base?.bias ?? .asIs)
            let debounce = role.isOutput ? 0 : (override?.debounceMilliseconds ?? 0) * 1000
            result[role] = ResolvedLine(role: role, offset: offset, name: name, activeLow: activeLow, bias: bias,
                                        debounceMicroseconds: debounce)
        }
        return result
    }

    /// Checks that need the board and, when given, the chip: lines on the chip, no line used twice.
    public func problems(preset: BoardPreset, chip: (any GPIOChip)?) -> [String] {
        var problems: [String] = []
        let lines = resolvedLines(preset: preset, family: family)
        if preset.gpio == nil && gpio.chip == nil && !lines.isEmpty {
            problems.append("gpio: board '\(preset.name)' has no GPIO; set gpio.chip as well, or remove the gpio.lines overrides")
        }
        var taken: [Int: LineRole] = [:]
        for role in LineRole.allCases {
            guard let line = lines[role] else { continue }
            let offset = chip.map { chip in line.name.flatMap { chip.lineOffset(named: $0) } ?? line.offset } ?? line.offset
            if let chip, offset >= chip.lineCount {
                problems.append("gpio.lines.\(role.rawValue).offset: \(offset) is beyond \(chip.name)'s \(chip.lineCount) lines; use 0 to \(chip.lineCount - 1)")
            } else if gpio.chip == nil, let board = preset.gpio,
                      let problem = board.wiringProblem(key: "gpio.lines.\(role.rawValue).offset", offset: offset) {
                // The preset's chip, present or not: its line count and its header say what can be wired.
                problems.append(problem)
            }
            if let other = taken[offset] {
                problems.append("gpio.lines.\(role.rawValue).offset: line \(offset) is already used for \(other.rawValue); give each role its own line")
            }
            taken[offset] = role
            if let chip, line.debounceMicroseconds > 0, !chip.supportsDebounce {
                problems.append("gpio.lines.\(role.rawValue).debounceMs: libgpiod \(LibgpiodChip.libraryVersion) speaks the kernel's GPIO uAPI v1, which cannot debounce (Debian 13 / Pi OS trixie's libgpiod 2 can); remove debounceMs, or fit an RC filter on the input")
            }
        }
        if leds == .aura, let family, !family.profile.hasAuraLED {
            problems.append("leds: 'aura' needs an R50x module with an LED ring; this config says family '\(family.rawValue)'; use \"gpio\" or \"none\"")
        }
        return problems
    }
}
