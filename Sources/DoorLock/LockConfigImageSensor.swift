extension LockConfig {
    /// `imageSensor`: how the host matcher of an image sensor (`spiDevice`) enrolls and decides:
    /// `"imageSensor": {"enrollCaptures": 10, "falseMatchRate": "1 in 100000"}`.
    public struct ImageSensor: Sendable, Equatable {
        /// Touches one enrollment takes (5…15; `enroll --captures N` overrides it once).
        public var enrollCaptures = 8
        /// The share of identify attempts by a stranger that may match someone: "1 in N", N from
        /// 1,000 to 100,000,000. The threshold follows from it and the number of enrolled fingers.
        public var falseMatchRate = 1e-4

        public init() {}
    }

    static let imageSensorKeys = ["enrollCaptures", "falseMatchRate"]
    static let falseMatchDenominators = 1_000...100_000_000

    mutating func readImageSensor(_ object: [String: Any], _ r: inout ConfigReader) {
        r.rejectUnknownKeys(object, known: Self.imageSensorKeys, at: "imageSensor")
        if let v = object["enrollCaptures"] {
            imageSensor.enrollCaptures = r.integer(v, "imageSensor.enrollCaptures", range: 5...15, unit: " touches") ?? imageSensor.enrollCaptures
        }
        if let v = object["falseMatchRate"], let text = r.string(v, "imageSensor.falseMatchRate") {
            if let rate = Self.falseMatchRate(text) {
                imageSensor.falseMatchRate = rate
            } else {
                r.problem("imageSensor.falseMatchRate", "'\(text)' is not a rate fpmod takes; write \"1 in N\" with N from 1000 to 100000000, "
                    + "e.g. \"1 in 10000\" (the default: one stranger's attempt in 10,000 matches someone)")
            }
        }
    }

    /// "1 in 10000" (also "1 in 10,000" and "1/10000") as 1e-4; nil for anything else.
    static func falseMatchRate(_ text: String) -> Double? {
        let compact = text.filter { $0 != "," && $0 != "_" && $0 != " " }.lowercased()
        let parts: [Substring]
        if compact.hasPrefix("1in") { parts = ["1", compact.dropFirst(3)] } else { parts = compact.split(separator: "/", maxSplits: 1) }
        guard parts.count == 2, parts[0] == "1", let denominator = Int(parts[1]), falseMatchDenominators.contains(denominator) else { return nil }
        return 1 / Double(denominator)
    }
}
