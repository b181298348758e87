/// "0–3, 7, 10–12": a compact list of slot numbers, as `fpmod info` and a console show which
/// slots a module holds.
public enum SlotList {
    public static func format(_ slots: Set<Int>) -> String {
        var ranges: [String] = []
        var sorted = slots.sorted()[...]
        while let first = sorted.first {
            var last = first
            sorted = sorted.dropFirst()
            while let next = sorted.first, next == last + 1 {
                last = next
                sorted = sorted.dropFirst()
            }
            ranges.append(first == last ? "\(first)" : "\(first)–\(last)")
        }
        return ranges.joined(separator: ", ")
    }
}
