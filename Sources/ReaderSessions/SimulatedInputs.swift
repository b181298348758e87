import DoorLock
import GPIO
import ImageSensorSimulator
import ModuleSimulator

/// `fpmod run --sim --sim-gpio`: the simulator's control socket drives the memory GPIO too, so
/// the whole service can be exercised without hardware. The touch line follows the sensor
/// (`place`, `lift`, `touch NAME` press and lift, as a real module's wake-up output does),
/// the same for the simulated module and the simulated image sensor, and four more verbs
/// move the inputs:
///
///     exit                 press and release the exit button
///     door open|closed     the door contact
///     tamper open|closed   the enclosure tamper switch
///     touch-line on|off    the touch line alone, without a finger on the sensor
public struct SimulatedInputs: Sendable {
    public let chip: MemoryChip
    public let lines: [LineRole: ResolvedLine]

    public init(chip: MemoryChip, lines: [LineRole: ResolvedLine]) {
        self.chip = chip
        self.lines = lines
    }

    public static let usage = "GPIO commands: exit, door open|closed, tamper open|closed, touch-line on|off"

    /// Wires `simulator` to `chip`. Polarity is the service's: `lines` must be resolved with
    /// the same family as the service resolves them.
    public static func connect(_ simulator: ModuleSimulatorServer, chip: MemoryChip, lines: [LineRole: ResolvedLine]) {
        let inputs = SimulatedInputs(chip: chip, lines: lines)
        simulator.observeFingerPresence { present in inputs.set(.touch, active: present) }
        simulator.acceptExtraCommands(usage: usage) { line in inputs.perform(line) }
    }

    /// The same for the simulated image sensor (`--sim-profile fpc1020`) and its control socket.
    public static func connect(_ sensor: SimulatedImageSensor, control: SimulatedSensorControl, chip: MemoryChip,
                        lines: [LineRole: ResolvedLine]) {
        let inputs = SimulatedInputs(chip: chip, lines: lines)
        sensor.observeFingerPresence { present in inputs.set(.touch, active: present) }
        control.acceptExtraCommands(usage: usage) { line in inputs.perform(line) }
    }

    /// The reply to one control line, or nil when it is no GPIO verb.
    public func perform(_ line: String) -> String? {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { $0.lowercased() }
        guard let verb = words.first else { return nil }
        let argument = words.dropFirst().first
        switch (verb, argument) {
        case ("exit", nil):
            guard set(.exitButton, active: true) else { return missing(.exitButton) }
            set(.exitButton, active: false)
            return "ok exit button pressed"
        case ("door", "open"?), ("door", "closed"?):
            return set(.doorContact, active: argument == "open") ? "ok door \(argument!)" : missing(.doorContact)
        case ("tamper", "open"?), ("tamper", "closed"?):
            return set(.tamper, active: argument == "open") ? "ok tamper \(argument!)" : missing(.tamper)
        case ("touch-line", "on"?), ("touch-line", "off"?):
            return set(.touch, active: argument == "on") ? "ok touch line \(argument!)" : missing(.touch)
        case ("exit", _), ("door", _), ("tamper", _), ("touch-line", _):
            return "error: usage: " + Self.usage
        default:
            return nil
        }
    }

    /// Puts every input at rest: no finger, exit button up, door closed, tamper switch closed.
    /// Each is driven to its inactive level, whatever the line's polarity; left floating, a
    /// line with a pull-up (the Pi presets' door contact and tamper switch) would read active.
    public func rest() {
        for role in LineRole.allCases where !role.isOutput { set(role, active: false) }
    }

    /// Drives the line's physical level for the logical state `active`; false when the board has no such line.
    @discardableResult
    public func set(_ role: LineRole, active: Bool) -> Bool {
        guard let line = lines[role] else { return false }
        chip.drive(offset: line.offset, level: active != line.activeLow)
        return true
    }

    private func missing(_ role: LineRole) -> String {
        "error: this board has no \(role.rawValue) line; set gpio.lines.\(role.rawValue) in the config"
    }
}
