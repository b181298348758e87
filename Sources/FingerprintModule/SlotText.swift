/// Slot ranges in words for messages: `slots 0 to 19`, `slot 4`, `no slot (…)` — never Swift's
/// `0..<20`, which a maker reading `fpmod` output should not have to decode.
public enum SlotText {
    public static func of(_ range: Range<Int>) -> String {
        switch range.count {
        case 0: "no slot (an empty range at \(range.lowerBound))"
        case 1: "slot \(range.lowerBound)"
        default: "slots \(range.lowerBound) to \(range.upperBound - 1)"
        }
    }
}
