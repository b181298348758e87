/// Percentiles of a set of durations (nanoseconds), nearest-rank: p of n samples is the
/// ⌈p·n⌉-th smallest, so every reported value is one that was actually measured.
public struct Distribution: Equatable {
    public let count: Int
    public let p50: Int64
    public let p95: Int64
    public let p99: Int64
    public let max: Int64
    public let mean: Double

    /// Nil for no samples: a stage that never ran has no percentiles, not zeros.
    public init?(_ samples: [Int64]) {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        count = sorted.count
        p50 = Distribution.rank(0.50, in: sorted)
        p95 = Distribution.rank(0.95, in: sorted)
        p99 = Distribution.rank(0.99, in: sorted)
        max = sorted[sorted.count - 1]
        mean = Double(sorted.reduce(0, +)) / Double(sorted.count)
    }

    /// The nearest-rank percentile of already sorted samples.
    public static func rank(_ fraction: Double, in sorted: [Int64]) -> Int64 {
        let position = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, position - 1))]
    }
}

/// Durations for people: 412 µs, 3.27 ms, 1.204 s.
public enum DurationText {
    /// A `Duration` as seconds, for rates and options given in seconds.
    public static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    public static func format(_ nanoseconds: Int64) -> String {
        let magnitude = abs(nanoseconds)
        let sign = nanoseconds < 0 ? "-" : ""
        if magnitude < 1_000_000 { return sign + "\(magnitude / 1000) µs" }
        if magnitude < 1_000_000_000 { return sign + fixed(Double(magnitude) / 1e6, digits: magnitude < 10_000_000 ? 2 : 1) + " ms" }
        return sign + fixed(Double(magnitude) / 1e9, digits: 3) + " s"
    }

    /// Milliseconds to the microsecond, for JSON: round trips are tens of microseconds, and a
    /// coarser value would make ratios against the C floor meaningless.
    public static func milliseconds(_ nanoseconds: Int64) -> Double { (Double(nanoseconds) / 1e3).rounded() / 1000 }

    /// A decimal with a fixed number of digits, without Foundation's locale-dependent formatting.
    public static func fixed(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale)
        var text = (value < 0 && scaled != 0 ? "-" : "") + "\(whole)"
        if digits > 0 {
            let fraction = String(scaled % Int64(scale))
            text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
        }
        return text
    }
}
