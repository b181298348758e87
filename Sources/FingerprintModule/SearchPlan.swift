/// The slot ranges one identify searches, in order, after a single capture + extract; the first
/// hit wins. `whole` is today's one Search over the occupied range; a regulars-first plan puts
/// the short range of the fingers that touch most often first and the rest after it, so a
/// regular pays one short Search and a stranger one extra fixed search cost.
public struct SearchPlan: Sendable, Equatable, CustomStringConvertible {
    /// Searched in this order; empty ranges are skipped.
    public var ranges: [Range<Int>]

    public init(ranges: [Range<Int>]) {
        self.ranges = ranges
    }

    /// One Search over `range`.
    public static func whole(_ range: Range<Int>) -> SearchPlan {
        SearchPlan(ranges: [range])
    }

    /// The ranges that are searched (the empty ones are not sent to the module).
    public var searchedRanges: [Range<Int>] { ranges.filter { !$0.isEmpty } }

    /// True when nothing would be searched (an empty library).
    public var isEmpty: Bool { searchedRanges.isEmpty }

    /// `slots 0 to 19, then slots 20 to 999` (the slot numbers a user sees in `fpmod list`).
    public var description: String {
        searchedRanges.isEmpty ? "nothing" : searchedRanges.map(SlotText.of).joined(separator: ", then ")
    }
}
