// Parsers for the value formats fpmod options use. Each returns nil on bad input; the typed
// accessors of ParsedCommand turn nil into a UsageError naming the option.

/// Parsers for option values, usable on their own (e.g. for config files).
public enum ValueParsing {
    /// A 32-bit hexadecimal number, with or without `0x`: `0x1234ABCD`, `1234abcd`, `FFFFFFFF`, `0`.
    public static func hexUInt32(_ text: String) -> UInt32? {
        var digits = Substring(text)
        if digits.hasPrefix("0x") || digits.hasPrefix("0X") { digits = digits.dropFirst(2) }
        guard (1...8).contains(digits.count), digits.allSatisfy(\.isHexDigit) else { return nil }
        return UInt32(digits, radix: 16)
    }

    /// A decimal integer (`-` allowed, no `+`, no spaces).
    public static func int(_ text: String) -> Int? {
        guard !text.hasPrefix("+") else { return nil }
        return Int(text)
    }

    /// A duration with a unit: `500ms`, `10s`, `1.5s`, `2m`, `1h`. A bare `0` is zero.
    /// Units: `ms`, `s`, `m`, `h`. Precision is kept to the nanosecond; negative values are rejected.
    public static func duration(_ text: String) -> Duration? {
        if text == "0" { return .zero }
        let units: [(suffix: String, nanoseconds: Int64)] = [
            ("ms", 1_000_000), ("s", 1_000_000_000), ("m", 60_000_000_000), ("h", 3_600_000_000_000),
        ]
        // "ms" before "m"/"s" so "500ms" is not read as "500m" + "s".
        guard let unit = units.first(where: { text.hasSuffix($0.suffix) }) else { return nil }
        let number = text.dropLast(unit.suffix.count)
        let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, !whole.isEmpty, whole.allSatisfy(\.isASCIIDigitCharacter),
            let wholeValue = Int64(whole)
        else { return nil }
        var total = wholeValue.multipliedReportingOverflow(by: unit.nanoseconds)
        guard !total.overflow else { return nil }
        if parts.count == 2 {
            let fraction = parts[1]
            guard !fraction.isEmpty, fraction.count <= 9, fraction.allSatisfy(\.isASCIIDigitCharacter),
                let fractionValue = Int64(fraction)
            else { return nil }
            var scale: Int64 = 1
            for _ in 0..<fraction.count { scale *= 10 }
            // fraction/scale of a unit, computed without floating point.
            let extra = fractionValue * (unit.nanoseconds / scale) + fractionValue * (unit.nanoseconds % scale) / scale
            total = total.partialValue.addingReportingOverflow(extra)
            guard !total.overflow else { return nil }
        }
        return .nanoseconds(total.partialValue)
    }
}

extension Character {
    fileprivate var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}
