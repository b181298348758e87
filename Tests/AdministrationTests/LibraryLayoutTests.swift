import Administration
import FingerprintModule
import ModuleSimulator
import Testing

/// Moves that bring the hot set to the start of the library, each into a slot free at the time.
@Suite struct LibraryLayoutTests {
    /// Applies the moves one by one, failing on a move from an empty or into a taken slot.
    func replay(_ moves: [SlotMove], on occupied: [Int]) -> Set<Int> {
        var slots = Set(occupied)
        for move in moves {
            #expect(slots.contains(move.from), "move \(move) from an empty slot")
            if move.isSwap {
                #expect(slots.contains(move.to), "swap \(move) with an empty slot")
                continue
            }
            #expect(!slots.contains(move.to), "move \(move) into a taken slot")
            slots.remove(move.from)
            slots.insert(move.to)
        }
        return slots
    }

    /// Follows each finger (named by its starting slot) through the moves.
    func owners(after moves: [SlotMove], occupied: [Int]) -> [Int: Int] {
        var where_: [Int: Int] = Dictionary(uniqueKeysWithValues: occupied.map { ($0, $0) })  // slot → original slot
        for move in moves {
            if move.isSwap {
                (where_[move.from], where_[move.to]) = (where_[move.to], where_[move.from])
            } else {
                where_[move.to] = where_.removeValue(forKey: move.from)
            }
        }
        return where_
    }

    @Test func hotFingersMoveIntoFreeSlotsOfTheWindow() {
        let occupied = [5, 40, 41, 90]
        let moves = LibraryLayout.moves(occupied: occupied, hot: [90, 40], capacity: 100)
        #expect(moves == [SlotMove(from: 90, to: 0), SlotMove(from: 40, to: 1)])
        #expect(replay(moves, on: occupied) == [0, 1, 5, 41])
    }

    @Test func hotFingersAlreadyInPlaceStay() {
        #expect(LibraryLayout.moves(occupied: [0, 1, 2, 9], hot: [1, 0], capacity: 10).isEmpty)
        // 1 stays; 0 leaves for the lowest free slot above the window so that 9 can come in.
        #expect(LibraryLayout.moves(occupied: [0, 1, 2, 9], hot: [9, 1], capacity: 10)
                == [SlotMove(from: 0, to: 3), SlotMove(from: 9, to: 0)])
    }

    /// A window full of other fingers: one moves out to the lowest free slot, a hot one takes its place.
    @Test func coldFingersInTheWindowMoveOutFirst() {
        let occupied = Array(0..<10)  // a full window for a hot set of 3
        let hot = [9, 7, 1]
        let moves = LibraryLayout.moves(occupied: occupied, hot: hot, capacity: 12)
        let after = replay(moves, on: occupied)
        #expect(after.count == occupied.count)
        let owner = owners(after: moves, occupied: occupied)
        #expect(Set((0..<3).compactMap { owner[$0] }) == Set(hot))
        #expect(moves.count == 4)  // 1 stays; 9 and 8 each need a cold finger moved out first
    }

    /// A hot set already side by side (empty slots between them are fine) stays where it is.
    @Test func aHotSetAlreadyTogetherStays() {
        #expect(LibraryLayout.moves(occupied: [0, 1, 5, 7, 9], hot: [9, 7], capacity: 10).isEmpty)
        #expect(LibraryLayout.moves(occupied: [0, 1, 5, 7, 8, 9], hot: [9, 7], capacity: 12).count == 4)
    }

    /// No free slot anywhere: each hot finger swaps with a cold one of the window.
    @Test func aFullLibrarySwaps() {
        let occupied = Array(0..<10)
        let moves = LibraryLayout.moves(occupied: occupied, hot: [9, 1, 7], capacity: 10)
        #expect(moves == [.swap(9, 0), .swap(7, 2)])
        #expect(LibraryLayout.applying(moves, to: Set(occupied)) == Set(occupied))
        let owner = owners(after: moves, occupied: occupied)
        #expect(owner[0] == 9 && owner[1] == 1 && owner[2] == 7 && owner[9] == 0 && owner[7] == 2)
        #expect(moves.reduce(0) { $0 + $1.flashWrites } == 4)  // two Stores per swap
    }

    /// A free slot (here above the window) is still used: moves, never swaps.
    @Test func freeSlotsAreStillPreferred() {
        let moves = LibraryLayout.moves(occupied: Array(0..<10), hot: [9, 7], capacity: 11)
        let anySwap = moves.contains(where: \.isSwap)
        #expect(!moves.isEmpty && !anySwap)
        #expect(LibraryLayout.moves(occupied: [1, 2, 3, 5, 9], hot: [9, 3], capacity: 10)
                == [SlotMove(from: 9, to: 0), SlotMove(from: 1, to: 4), SlotMove(from: 3, to: 1)])
    }

    /// Shuffled full libraries: afterwards the hot set is exactly the window, with swaps only.
    @Test func fullLibrariesEndContiguous() {
        var generator = SeededRandom(seed: 7)
        for _ in 0..<50 {
            let occupied = Array(0..<120).shuffled(using: &generator)
            let hot = Array(occupied.shuffled(using: &generator).prefix(Int.random(in: 2...30, using: &generator)))
            let moves = LibraryLayout.moves(occupied: occupied, hot: hot, capacity: 120)
            let allSwaps = moves.allSatisfy(\.isSwap)
            #expect(allSwaps)
            #expect(replay(moves, on: occupied).count == 120)
            let owner = owners(after: moves, occupied: occupied)
            let hotNow = Set(owner.filter { hot.contains($0.value) }.map(\.key))
            if !moves.isEmpty { #expect(hotNow == Set(0..<hot.count)) }
            #expect(moves.count <= hot.count)
        }
    }

    /// A shuffled library: afterwards the hot set is exactly the window, every finger kept once.
    @Test func shuffledLibrariesEndContiguous() {
        var generator = SeededRandom(seed: 13)
        for _ in 0..<50 {
            let capacity = 200
            let occupied = Array((0..<capacity).shuffled(using: &generator).prefix(150))
            let hot = Array(occupied.shuffled(using: &generator).prefix(Int.random(in: 1...40, using: &generator)))
            let moves = LibraryLayout.moves(occupied: occupied, hot: hot, capacity: capacity)
            let after = replay(moves, on: occupied)
            #expect(after.count == occupied.count)
            let owner = owners(after: moves, occupied: occupied)
            #expect(moves.count <= 2 * hot.count)
            // Where each hot finger is now; their span must hold no other finger.
            let hotNow = owner.filter { hot.contains($0.value) }.map(\.key)
            #expect(hotNow.count == hot.count)
            let span = hotNow.min()!...hotNow.max()!
            #expect(after.filter { span.contains($0) }.count == hot.count)
            if !moves.isEmpty { #expect(Set(hotNow) == Set(0..<hot.count)) }
            let plan = SearchPlan.regularsFirst(hot: hotNow, occupied: Array(after))
            #expect(plan.searchedRanges.first == span.lowerBound..<(span.upperBound + 1))
        }
    }
}

