import Keypad
import Wiegand

extension LockConfig {
    /// `wiegand`: a Wiegand card reader (and its keypad) on two GPIO inputs of the board's chip:
    /// `"wiegand": {"d0": "wiegand-d0", "d1": "wiegand-d1"}`, each a line offset or name. The
    /// tolerances default to the standard's (`maxIntervalMs` 20, `gapMs` 25, `minIntervalUs` 150);
    /// `pauseSeconds` drops a half-typed PIN from the reader's keypad, as the `keypad` section's.
    public struct WiegandReader: Sendable, Equatable {
        public var d0: String
        public var d1: String
        public var minimumIntervalMicroseconds = 150
        public var maximumIntervalMilliseconds = 20
        public var gapMilliseconds = 25
        public var pauseSeconds = 5

        public init(d0: String, d1: String) {
            self.d0 = d0
            self.d1 = d1
        }

        /// The decoder's tolerances; the config reader has checked they fit together.
        public var timing: WiegandDecoder.Timing {
            get throws(WiegandTimingError) {
                try WiegandDecoder.Timing(minimumInterval: UInt64(minimumIntervalMicroseconds) * 1000,
                                          maximumInterval: UInt64(maximumIntervalMilliseconds) * 1_000_000,
                                          frameGap: UInt64(gapMilliseconds) * 1_000_000)
            }
        }

        public var entrySettings: KeypadEntry.Settings {
            get throws(KeypadSettingsError) { try KeypadEntry.Settings(pause: Double(pauseSeconds)) }
        }
    }

    static let wiegandKeys = ["d0", "d1", "minIntervalUs", "maxIntervalMs", "gapMs", "pauseSeconds"]

    mutating func readWiegand(_ object: [String: Any], _ r: inout ConfigReader) {
        r.rejectUnknownKeys(object, known: Self.wiegandKeys, at: "wiegand")
        let (d0, d1) = r.wiegandDataLines(object, section: "wiegand", wire: "the reader's")
        var reader = WiegandReader(d0: d0 ?? "", d1: d1 ?? "")
        if let v = object["minIntervalUs"] { reader.minimumIntervalMicroseconds = r.integer(v, "wiegand.minIntervalUs", range: 1...100_000, unit: " µs") ?? reader.minimumIntervalMicroseconds }
        if let v = object["maxIntervalMs"] { reader.maximumIntervalMilliseconds = r.integer(v, "wiegand.maxIntervalMs", range: 1...10_000, unit: " ms") ?? reader.maximumIntervalMilliseconds }
        if let v = object["gapMs"] { reader.gapMilliseconds = r.integer(v, "wiegand.gapMs", range: 1...10_000, unit: " ms") ?? reader.gapMilliseconds }
        if let v = object["pauseSeconds"] { reader.pauseSeconds = r.integer(v, "wiegand.pauseSeconds", range: 1...120, unit: " s") ?? reader.pauseSeconds }
        do { _ = try reader.timing } catch {
            r.problem("wiegand.maxIntervalMs", "\(error); keep minIntervalUs below maxIntervalMs, and maxIntervalMs at most gapMs")
            return
        }
        if d0 != nil, d1 != nil { wiegand = reader }
    }
}

extension ConfigReader {
    /// A Wiegand section's `d0` and `d1`: each a line offset or name, present, and not the same
    /// line; nil for one with a problem (reported).
    mutating func wiegandDataLines(_ object: [String: Any], section: String, wire: String) -> (String?, String?) {
        func line(_ key: String) -> String? {
            guard let value = object[key] else {
                problem("\(section).\(key)", "missing; give the line \(wire) \(key.uppercased()) wire is on, as an offset or a name (gpioinfo)")
                return nil
            }
            if let text = value as? String, !text.isEmpty { return text }
            return integer(value, "\(section).\(key)", range: 0...1023).map(String.init)
        }
        let d0 = line("d0"), d1 = line("d1")
        if let d0, d0 == d1 {
            problem("\(section).d1", "is the same line as \(section).d0; Wiegand has two data lines, give each its own")
            return (d0, nil)
        }
        return (d0, d1)
    }
}
