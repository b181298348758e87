import NFCInput
import Testing

/// A held card is presented once; taken away and back, again; another card at once.
struct CardRepeatFilterTests {
    let alice: [UInt8] = [0x04, 0x11, 0x22, 0x33]
    let bob: [UInt8] = [0x04, 0x44, 0x55, 0x66]

    /// The sightings, in order, and which were taken.
    func taken(_ sightings: [([UInt8], Double)], filter: inout CardRepeatFilter) -> [Bool] {
        sightings.map { filter.admit($0.0, at: $0.1) }
    }

    @Test func aHeldCardIsTakenOnce() {
        var filter = CardRepeatFilter(quiet: 1.5)
        // Seen at every poll for 20 s while held: taken at the first sighting only.
        let held = (0...100).map { (alice, 10 + Double($0) * 0.2) }
        #expect(taken(held, filter: &filter) == [true] + Array(repeating: false, count: 100))
        // Away for longer than the quiet time: a new presentation.
        #expect(taken([(alice, 30 + 1.6)], filter: &filter) == [true])
    }

    @Test func anotherCardIsTakenAtOnce() {
        var filter = CardRepeatFilter(quiet: 1.5)
        #expect(taken([(alice, 10), (bob, 10.1), (alice, 10.2)], filter: &filter) == [true, true, true])
    }

    @Test func resetForgets() {
        var filter = CardRepeatFilter(quiet: 1.5)
        #expect(taken([(alice, 10)], filter: &filter) == [true])
        filter.reset()
        #expect(taken([(alice, 10.1)], filter: &filter) == [true])
    }
}
