import Keypad

extension LockConfig {
    /// `keypad`: a PIN keypad on the Linux input subsystem, for the PIN fallback at the door:
    /// `"keypad": {"device": "/dev/input/by-id/usb-…-event-kbd", "pauseSeconds": 5}`. `device` is
    /// a path (by-id stays stable across replugging) or the device's own name (`fpmod keypad list`).
    public struct Keypad: Sendable, Equatable {
        public var device: String
        /// Seconds without a key after which a half-typed PIN is dropped.
        public var pauseSeconds = 5
        public var minimumDigits = 4
        public var maximumDigits = 12

        public init(device: String) { self.device = device }

        /// The entry's settings; the config reader has checked every value against them.
        public var entrySettings: KeypadEntry.Settings {
            get throws(KeypadSettingsError) {
                try KeypadEntry.Settings(minimumDigits: minimumDigits, maximumDigits: maximumDigits, pause: Double(pauseSeconds))
            }
        }
    }

    static let keypadKeys = ["device", "pauseSeconds", "minimumDigits", "maximumDigits"]

    mutating func readKeypad(_ object: [String: Any], _ r: inout ConfigReader) {
        r.rejectUnknownKeys(object, known: Self.keypadKeys, at: "keypad")
        var keypad = Keypad(device: "")
        if let v = object["device"] {
            keypad.device = r.string(v, "keypad.device") ?? ""
        } else {
            r.problem("keypad.device", "missing; name the keypad: a path such as /dev/input/by-id/usb-…-event-kbd, or its name as `fpmod keypad list` shows it")
        }
        if let v = object["pauseSeconds"] {
            keypad.pauseSeconds = r.integer(v, "keypad.pauseSeconds", range: 1...120, unit: " s") ?? keypad.pauseSeconds
        }
        let digits = KeypadEntry.Settings.allowedDigits
        if let v = object["minimumDigits"] { keypad.minimumDigits = r.integer(v, "keypad.minimumDigits", range: digits) ?? keypad.minimumDigits }
        if let v = object["maximumDigits"] { keypad.maximumDigits = r.integer(v, "keypad.maximumDigits", range: digits) ?? keypad.maximumDigits }
        if keypad.minimumDigits > keypad.maximumDigits {
            r.problem("keypad.minimumDigits", "\(keypad.minimumDigits) is more than keypad.maximumDigits (\(keypad.maximumDigits)); no PIN could be typed")
        }
        // A section with a problem is reported above and never used.
        if !keypad.device.isEmpty { self.keypad = keypad }
    }
}
