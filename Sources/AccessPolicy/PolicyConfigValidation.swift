extension PolicyConfig {
    /// Problems that make this config unusable, each starting with the key path of the bad
    /// key (prefixed by `keyPath`) and saying what to change. Empty means valid.
    public func validate(keyPath: String = "policy") -> [String] {
        var problems: [String] = []
        func check(_ ok: Bool, _ key: String, _ message: String) {
            if !ok { problems.append("\(keyPath).\(key): \(message)") }
        }
        func seconds(_ value: Double, _ key: String, min: Double, minInclusive: Bool, max: Double) {
            let aboveMin = minInclusive ? value >= min : value > min
            check(value.isFinite && aboveMin && value <= max, key,
                  "\(value) is out of range; use a number of seconds \(minInclusive ? "from" : "above") \(Self.format(min)) up to \(Self.format(max))")
        }
        seconds(relayPulseSeconds, "relayPulseSeconds", min: 0, minInclusive: false, max: 600)
        seconds(idleTimeoutSeconds, "idleTimeoutSeconds", min: 0, minInclusive: false, max: 86_400)
        seconds(backgroundTimeoutSeconds, "backgroundTimeoutSeconds", min: 0, minInclusive: true, max: 86_400)
        seconds(graceSeconds, "graceSeconds", min: 0, minInclusive: true, max: Self.maximumGraceSeconds)
        seconds(heldOpenSeconds, "heldOpenSeconds", min: 0, minInclusive: false, max: 86_400)
        seconds(forcedOpenExemptSeconds, "forcedOpenExemptSeconds", min: 0, minInclusive: true, max: 600)
        seconds(verificationValiditySeconds, "verificationValiditySeconds", min: 0, minInclusive: false, max: 3_600)
        seconds(factorWindowSeconds, "factorWindowSeconds", min: 1, minInclusive: true, max: 120)
        if let twoPersonSeconds {
            seconds(twoPersonSeconds, "twoPersonSeconds", min: 5, minInclusive: true, max: 600)
        }
        check(pinRequiredAfterHoursWithoutPin.isFinite && pinRequiredAfterHoursWithoutPin >= 0,
              "pinRequiredAfterHoursWithoutPin",
              "\(pinRequiredAfterHoursWithoutPin) is out of range; use 0 (off) or a positive number of hours")
        for (key, t) in [("fingerprintLockout", fingerprintLockout), ("pinLockout", pinLockout), ("cardLockout", cardLockout)] {
            check(t.failuresPerTimedLockout >= 1, "\(key).failuresPerTimedLockout",
                  "\(t.failuresPerTimedLockout) is out of range; use 1 or more")
            seconds(t.timedLockoutSeconds, "\(key).timedLockoutSeconds", min: 0, minInclusive: false, max: 86_400)
            check(t.failuresForPermanentLockout >= t.failuresPerTimedLockout,
                  "\(key).failuresForPermanentLockout",
                  "\(t.failuresForPermanentLockout) is below failuresPerTimedLockout (\(t.failuresPerTimedLockout)); use a count at least as large")
        }
        return problems
    }

    private static func format(_ value: Double) -> String {
        value.isFinite && abs(value) < 1e15 && value == Double(Int(value)) ? String(Int(value)) : String(value)
    }
}
