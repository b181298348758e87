/// One template moved on the module from one slot to another (LoadChar, Store, DeletChar).
public struct SlotMove: Sendable, Equatable, CustomStringConvertible {
    public var from: Int
    public var to: Int

    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }

    public var description: String { "\(from)→\(to)" }
}

/// Which moves bring the hot set into one contiguous range at the start of the library, so
/// "regulars first" is one short Search. Pure.
public enum LibraryLayout {
    /// Nothing when the hot slots already form one run of occupied slots (no other finger
    /// between them). Else the moves, in order, that put every slot of `hot` into `0..<hot.count`: each moves an
    /// occupied slot into a slot that is free at that moment (nothing is ever overwritten).
    /// Hot fingers already inside the window stay; the others take the window's free slots
    /// hottest first (lowest slot first). When the window is full of other fingers, one of
    /// them first moves out to the lowest free slot above the window, then a hot finger takes
    /// its place — two moves. With no free slot at all, nothing can move: the moves returned
    /// stop where the library is too full (`capacity` bounds where evicted fingers may go).
    public static func moves(occupied: [Int], hot: [Int], capacity: Int) -> [SlotMove] {
        var taken = Set(occupied)
        var seen = Set<Int>()
        let hot = hot.filter { taken.contains($0) && seen.insert($0).inserted }
        let hotSet = Set(hot)
        // Already one run of occupied slots (wherever it lies): one Search covers it, nothing to move.
        if let low = hot.min(), let high = hot.max(), !taken.contains(where: { (low...high).contains($0) && !hotSet.contains($0) }) {
            return []
        }
        let window = 0..<hot.count
        var freeInside = window.filter { !taken.contains($0) }
        var coldInside = window.filter { taken.contains($0) && !hotSet.contains($0) }
        var moves: [SlotMove] = []
        func lowestFreeAbove() -> Int? {
            (window.upperBound..<max(window.upperBound, capacity)).first { !taken.contains($0) }
        }
        func move(_ from: Int, _ to: Int) {
            moves.append(SlotMove(from: from, to: to))
            taken.remove(from)
            taken.insert(to)
        }
        for slot in hot where !window.contains(slot) {
            if !freeInside.isEmpty {
                move(slot, freeInside.removeFirst())
            } else if !coldInside.isEmpty, let spare = lowestFreeAbove() {
                let target = coldInside.removeFirst()
                move(target, spare)
                move(slot, target)
            } else {
                break
            }
        }
        return moves
    }

    /// Applies `moves` to a set of occupied slots, as the module would (for tests and the bench).
    public static func applying(_ moves: [SlotMove], to occupied: Set<Int>) -> Set<Int> {
        var slots = occupied
        for move in moves {
            slots.remove(move.from)
            slots.insert(move.to)
        }
        return slots
    }
}
