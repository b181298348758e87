/// Rounds a duration up to whole seconds for display, without libm (this target imports
/// nothing, and `Double.rounded` needs libm at link time on Linux).
func wholeSecondsUp(_ seconds: Double) -> Int {
    guard seconds.isFinite, seconds > 0 else { return 0 }
    guard seconds < 1e15 else { return Int(1e15) }
    let truncated = Int(seconds)
    return Double(truncated) < seconds ? truncated + 1 : truncated
}
