import Foundation

/// An axis with "nice" ticks (1, 2 or 5 × 10ⁿ apart) that covers the data, and the number
/// formatting the plots share. Pure arithmetic with every degenerate case guarded: no input makes
/// a NaN or an infinity come out.
struct PlotAxis: Equatable {
    var low: Double
    var high: Double
    var step: Double
    var ticks: [Double]
    /// Decimals a tick label needs for this step.
    var decimals: Int

    /// An axis covering `minimum…maximum` (finite), with zero in it when `includeZero`, about
    /// `target` ticks, whole-number steps only when `integer`.
    init(minimum: Double, maximum: Double, target: Int = 5, includeZero: Bool = false, integer: Bool = false) {
        var lo = minimum.isFinite ? minimum : 0
        var hi = maximum.isFinite ? maximum : 0
        if lo > hi { swap(&lo, &hi) }
        if includeZero { lo = Swift.min(lo, 0); hi = Swift.max(hi, 0) }
        if !(hi > lo) {
            // One value, or all equal: a band around it (0…1 around zero).
            if lo == 0 {
                hi = 1
            } else {
                let pad = Swift.max(abs(lo) * 0.1, integer ? 1 : 1e-9)
                lo -= pad
                hi += pad
                if includeZero { lo = Swift.min(lo, 0); hi = Swift.max(hi, 0) }
            }
        }
        var step = PlotAxis.niceStep((hi - lo) / Double(Swift.max(1, target)))
        if integer { step = Swift.max(1, step.rounded(.up)) }
        let first = (lo / step).rounded(.down)
        let last = (hi / step).rounded(.up)
        let count = Swift.max(1, Swift.min(Int(last - first), 100))
        let start = first * step
        low = start
        high = start + Double(count) * step
        self.step = step
        ticks = (0...count).map { start + Double($0) * step }
        decimals = step >= 1 ? 0 : Swift.min(9, Int((-log10(step)).rounded(.up)))
    }

    /// 1, 2 or 5 × 10ⁿ, at least `raw` roughly; 1 for anything not positive and finite.
    static func niceStep(_ raw: Double) -> Double {
        guard raw.isFinite, raw > 0 else { return 1 }
        let exponent = log10(raw).rounded(.down)
        let power = pow(10, exponent)
        let fraction = raw / power
        let nice: Double = fraction < 1.5 ? 1 : fraction < 3 ? 2 : fraction < 7 ? 5 : 10
        let step = nice * power
        return step.isFinite && step > 0 ? step : 1
    }

    /// Where `value` falls between `from` (at `low`) and `to` (at `high`).
    func position(_ value: Double, from: Double, to: Double) -> Double {
        let span = high - low
        guard span > 0, span.isFinite else { return from }
        let fraction = (value - low) / span
        return from + (to - from) * (fraction.isFinite ? fraction : 0)
    }

    func label(_ value: Double) -> String { PlotNumber.format(value, decimals: decimals) }
}

enum PlotNumber {
    /// `value` with `decimals` decimals, "0" never "-0", and "0" for anything not finite.
    static func format(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "0" }
        let text = String(format: "%.\(Swift.max(0, Swift.min(decimals, 9)))f", value)
        if text.hasPrefix("-"), text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) { return String(text.dropFirst()) }
        return text
    }

    /// A coordinate: one decimal.
    static func coordinate(_ value: Double) -> String { format(value, decimals: 1) }

    /// A measured value for a summary: 2 decimals below 10, 1 below 100, whole above; no trailing zeros.
    static func summary(_ value: Double) -> String {
        let magnitude = abs(value)
        var text = format(value, decimals: magnitude < 10 ? 2 : magnitude < 100 ? 1 : 0)
        if text.contains(".") {
            while text.hasSuffix("0") { text.removeLast() }
            if text.hasSuffix(".") { text.removeLast() }
        }
        return text
    }

    /// The `p` quantile (0…1) of sorted values, linearly interpolated; 0 for none.
    static func quantile(_ sorted: [Double], _ p: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let position = Swift.max(0, Swift.min(1, p)) * Double(sorted.count - 1)
        let lower = Int(position.rounded(.down))
        let upper = Swift.min(lower + 1, sorted.count - 1)
        let fraction = position - Double(lower)
        return sorted[lower] + (sorted[upper] - sorted[lower]) * fraction
    }

    /// Values a plot can place: finite and within ±1e15 (so differences stay finite too).
    static func plottable(_ value: Double) -> Bool { value.isFinite && abs(value) <= 1e15 }
}
