import Foundation
import AccessPolicy
import FingerprintProtocol
import GPIO

/// The service's configuration file: a board preset plus overrides (one JSON object).
///
/// Read it with `LockConfig.parse(_:)` or `LockConfig.load(path:)`, which check every key and
/// name the path of each bad one; everything left out takes the preset's or the default value.
public struct LockConfig: Sendable, Equatable {
    /// Board preset name (`rpi4`, `rpi5`, `gpio-vm`, `usb-serial` …) or a path to a preset file.
    public var board: String = "usb-serial"
    /// Serial device of the module; nil = the preset's.
    public var serialPort: String?
    /// The spidev node of an FPC1020A image sensor (`/dev/spidev0.0`): set, the sensor is the
    /// reader instead of a module and matching runs on the host; its IRQ/reset lines come from
    /// the board preset's `spi` section. nil = a UART module on `serialPort`.
    public var spiDevice: String?
    public var baudRate: Int?
    /// Module address and password; nil = the store's pairing, else the factory values.
    public var address: UInt32?
    public var password: UInt32?
    /// Module family; nil = detected.
    public var family: ModuleFamily?
    public var gpio = GPIOOverrides()
    /// Touch-line polarity; nil = the family's (R30x/R50x active-low, AS608 active-high).
    public var touchActiveLow: Bool?
    /// Without a touch line: how often GenImg polls for a finger.
    public var scanIntervalMs: Int = 250
    public var policy = PolicyConfig()
    /// Where JSON-line events are published; nil = `defaultSocketDirectory()/events.sock`.
    public var eventsSocket: String?
    /// Where the control line protocol listens; nil = `defaultSocketDirectory()/control.sock`.
    public var controlSocket: String?
    public var hooks = Hooks()
    /// Template store; nil = the default paths (or the command line's).
    public var storeDatabase: String?
    public var storeKey: String?
    /// What shows the lock's state; nil = the R503 aura ring when the family has one, else GPIO.
    public var leds: LEDKind?
    /// The Home Assistant bridge over MQTT; nil = none (the service has no network face).
    public var mqtt: MQTT?
    /// How much of a user's name the journal, the event socket and MQTT show.
    public var privacy = Privacy()
    /// A fleet door's answer to a hub gone silent (LockConfigFleet.swift).
    public var fleet = Fleet()
    /// Search order and library layout (LockConfigLibrary.swift).
    public var library = Library()
    /// Enrollment touches and false-match rate of an image sensor's host matcher (LockConfigImageSensor.swift).
    public var imageSensor = ImageSensor()
    /// A PIN keypad on the input subsystem; nil when the door has none.
    public var keypad: Keypad?
    /// A Wiegand card reader (with or without a keypad) on two GPIO lines; nil when none.
    public var wiegand: WiegandReader?
    /// Wiegand out to an access panel; nil when fpmod is not in front of one.
    public var wiegandOut: WiegandOut?
    /// An NFC card reader polled through libnfc; nil when none.
    public var nfc: NFCReaderSection?
    /// The door's time zone and its own access rules (LockConfigAccess.swift).
    public var access = Access()
    /// The web console and the kiosk lock screen (`console`); off unless enabled.
    public var console = Console()

    public init() {}

    /// Per-role GPIO overrides.
    public struct GPIOOverrides: Sendable, Equatable {
        /// Chip name, path or label; nil = the preset's.
        public var chip: String?
        /// A role mapped to nil is switched off (e.g. no touch line: GenImg polling instead).
        public var lines: [LineRole: LineOverride?] = [:]
        public init() {}
    }

    /// What the config changes about one line; nil fields keep the preset's.
    public struct LineOverride: Sendable, Equatable {
        public var offset: Int?
        public var name: String?
        public var activeLow: Bool?
        public var bias: Bias?
        /// The kernel's debounce period for an input, in milliseconds (libgpiod 2 only).
        public var debounceMilliseconds: Int?
        public init(offset: Int? = nil, name: String? = nil, activeLow: Bool? = nil, bias: Bias? = nil,
                    debounceMilliseconds: Int? = nil) {
            self.offset = offset
            self.name = name
            self.activeLow = activeLow
            self.bias = bias
            self.debounceMilliseconds = debounceMilliseconds
        }
    }

    /// Commands run on events (argv arrays, no shell), with FPMOD_EVENT, FPMOD_USER, FPMOD_SLOT set.
    public struct Hooks: Sendable, Equatable {
        public var onUnlock: [String]?
        public var onDeny: [String]?
        public var onLockout: [String]?
        public var onAlarm: [String]?
        public var onDuress: [String]?
        public init() {}
    }

    public enum LEDKind: String, Sendable, Equatable, CaseIterable {
        case gpio, aura, none
    }
}

extension LockConfig {
    /// The relay pulse (door mode), kept in the policy where the re-lock is decided.
    public var relayPulseSeconds: Double {
        get { policy.relayPulseSeconds }
        set { policy.relayPulseSeconds = newValue }
    }

    /// The configuration an installed service runs with, and every command reads when none is named.
    public static let installedPath = "/etc/fpmod/config.json"
    /// `installedPath` when that file exists: the config of a command or service given none.
    public static var installedPathIfPresent: String? {
        FileManager.default.fileExists(atPath: installedPath) ? installedPath : nil
    }

    /// `$RUNTIME_DIRECTORY`, else `/run/fpmod` as root, else `$XDG_RUNTIME_DIR/fpmod`, else `/tmp/fpmod-UID`.
    public static func defaultSocketDirectory(environment: [String: String], euid: UInt32) -> String {
        if let runtime = environment["RUNTIME_DIRECTORY"], !runtime.isEmpty {
            return runtime.split(separator: ":").first.map(String.init) ?? runtime
        }
        if euid == 0 { return "/run/fpmod" }
        if let xdg = environment["XDG_RUNTIME_DIR"], !xdg.isEmpty { return xdg + "/fpmod" }
        return "/tmp/fpmod-\(euid)"
    }

    /// The touch line's polarity: the config's, else the family's.
    public func touchIsActiveLow(family detected: ModuleFamily?) -> Bool {
        if let touchActiveLow { return touchActiveLow }
        if case let line?? = gpio.lines[.touch], let activeLow = line.activeLow { return activeLow }
        return (family ?? detected) == .as608 ? false : true
    }
}
