/// One template moved on the module from one slot to another (LoadChar, Store, DeletChar), or,
/// when `isSwap`, the templates of two occupied slots exchanged (LoadChar both into the two char
/// buffers, Store each into the other slot) — how a full library is rearranged.
public struct SlotMove: Sendable, Equatable, CustomStringConvertible {
    public var from: Int
    public var to: Int
    public var isSwap: Bool

    public init(from: Int, to: Int, isSwap: Bool = false) {
        self.from = from
        self.to = to
        self.isSwap = isSwap
    }

    public static func swap(_ a: Int, _ b: Int) -> SlotMove { SlotMove(from: a, to: b, isSwap: true) }

    /// Both kinds cost two flash writes: Store + DeletChar, or two Stores.
    public var flashWrites: Int { 2 }

    public var description: String { isSwap ? "\(from)⇄\(to)" : "\(from)→\(to)" }
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
    /// its place — two moves. With no free slot at all (a full library) the hot finger swaps
    /// with that cold one instead: one swap, two flash writes, no free slot needed. Free slots
    /// are preferred: a move needs no repair-time rewrite if cut (`capacity` bounds where
    /// evicted fingers may go).
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
            } else if !coldInside.isEmpty {
                moves.append(.swap(slot, coldInside.removeFirst()))
            } else {
                break
            }
        }
        return moves
    }

    /// Applies `moves` to a set of occupied slots, as the module would (for tests and the bench;
    /// a swap leaves both slots occupied).
    public static func applying(_ moves: [SlotMove], to occupied: Set<Int>) -> Set<Int> {
        var slots = occupied
        for move in moves where !move.isSwap {
            slots.remove(move.from)
            slots.insert(move.to)
        }
        return slots
    }
}
