import Imaging
import Testing
import Wiegand

@Suite("Decoder: pulse trains, timing and bad input")
struct DecoderTests {
    let card26 = bits("10111101100010001110101110")  // facility 123, number 4567
    let card34 = bits("0000000111110100011111111111111111")  // facility 1000, number 65535

    @Test("a 26-bit and a 34-bit card at reader pace, a frame gap apart")
    func cards() {
        let train = edges(card26, start: boot) + edges(card34, start: boot + 60_000_000, interval: 2_000_000)
        let events = decodeAll(train)
        #expect(events.count == 2)
        #expect(events[0] == .card(format: .w26, facility: 123, number: 4567, bits: card26))
        #expect(events[1] == .card(format: .w34, facility: 1000, number: 65535, bits: card34))
    }

    /// The same events whenever `poll` is called between the edges (never past the next one),
    /// as a poll loop with any timeout would: the FrameDecoder's "any chunking" for time.
    @Test("polling at any time between edges changes nothing")
    func pollingAnytime() {
        var generator = SeededGenerator(seed: 24)
        let train = edges(card26, start: boot) + edges(bits("01111000"), start: boot + 60_000_000)
            + edges(card34, start: boot + 100_000_000)
        let reference = decodeAll(train)
        #expect(reference.count == 3)
        for _ in 0..<200 {
            var decoder = WiegandDecoder()
            var events: [WiegandEvent] = []
            for (index, edge) in train.enumerated() {
                if index > 0 {
                    let previous = train[index - 1].timestamp
                    let now = UInt64.random(in: previous..<edge.timestamp, using: &generator)
                    if let event = decoder.poll(now: now) { events.append(event) }
                }
                if let event = decoder.feed(edge) { events.append(event) }
            }
            events += decodeAll([], decoder: &decoder)
            #expect(events == reference)
        }
    }

    @Test("a frame ends exactly one frame gap after its last edge, not a nanosecond before")
    func frameGapBoundary() throws {
        var decoder = WiegandDecoder()
        for edge in edges(card26, start: boot) { #expect(decoder.feed(edge) == nil) }
        let last = boot + 25 * 1_000_000
        #expect(decoder.deadline == last + 25_000_000)
        #expect(decoder.poll(now: last + 24_999_999) == nil)
        #expect(decoder.bitCount == 26)
        #expect(decoder.poll(now: last + 25_000_000)?.isCard == true)
        #expect(decoder.deadline == nil)
        #expect(decoder.poll(now: last + 90_000_000) == nil)
        // A clock read before the last edge is no pause.
        var early = WiegandDecoder()
        _ = early.feed(WiegandEdge(line: .d1, timestamp: boot))
        #expect(early.poll(now: boot - 1) == nil)
    }

    @Test("recorded-style trains: 50 µs pulses every 1-2 ms with timestamp jitter up to ±100 µs decode")
    func jitteredTrains() throws {
        var generator = SeededGenerator(seed: 0x5EED)
        for round in 0..<300 {
            let credential = try WiegandCredential(
                format: round % 2 == 0 ? .w26 : .w34, facility: UInt32(round * 7 % 256), number: UInt32(round * 211 % 65536)
            )
            let interval = UInt64.random(in: 1_000_000...2_000_000, using: &generator)
            let train = edges(credential.bits, start: boot, interval: interval, jitter: 100_000, using: &generator)
            #expect(decodeAll(train) == [.card(format: credential.format, facility: credential.facility, number: credential.number, bits: credential.bits)])
        }
    }

    @Test("a 25-bit frame (a bit lost) is rejected, never a card")
    func shortFrame() {
        let lost = WiegandBits(count: 25, value: card26.value >> 1)
        #expect(decodeAll(edges(lost, start: boot)) == [.rejected(.unsupportedLength(25))])
    }

    @Test("bad parity in the first half, the second half, or both: rejected with which", arguments: [1, 20, 0])
    func badParityOnTheWire(flip: Int) {
        var value = card26.value ^ (1 << UInt64(25 - flip))
        if flip == 0 { value ^= 1 }  // the first and the last bit
        let broken = WiegandBits(count: 26, value: value)
        let failed: WiegandParityFailure = flip == 1 ? .leadingEven : flip == 20 ? .trailingOdd : .both
        #expect(decodeAll(edges(broken, start: boot)) == [.rejected(.badParity(format: .w26, failed: failed, bits: broken))])
    }

    @Test("both lines low at once: D0 and D1 edges 5 µs apart break the frame")
    func bothLines() {
        var train = edges(card26, start: boot)
        train.insert(WiegandEdge(line: train[10].line == .d0 ? .d1 : .d0, timestamp: train[10].timestamp + 5_000), at: 11)
        var decoder = WiegandDecoder()
        let events = decodeAll(train, decoder: &decoder)
        #expect(events == [.rejected(.bothLines(interval: 5_000))])
        #expect(decoder.statistics.cards == 0)
        #expect(decoder.statistics.discardedEdges == 16)
    }

    @Test("two pulses on one line 40 µs apart (bounce): too fast, rejected")
    func tooFast() {
        var train = edges(card26, start: boot)
        train.insert(WiegandEdge(line: train[3].line, timestamp: train[3].timestamp + 40_000), at: 4)
        #expect(decodeAll(train) == [.rejected(.tooFast(line: train[3].line, interval: 40_000))])
    }

    @Test("a frame gap inside a frame splits it: two 13-bit halves, both rejected")
    func gapSplitsFrame() {
        let first = WiegandBits(count: 13, value: card26.value >> 13)
        let second = WiegandBits(count: 13, value: card26.value & 0x1FFF)
        let train = edges(first, start: boot) + edges(second, start: boot + 12_000_000 + 30_000_000)
        #expect(decodeAll(train) == [.rejected(.unsupportedLength(13)), .rejected(.unsupportedLength(13))])
    }

    @Test("a pause longer than a reader's but shorter than a frame gap: stalled, and the rest dropped")
    func stalled() {
        let first = WiegandBits(count: 13, value: card26.value >> 13)
        let second = WiegandBits(count: 13, value: card26.value & 0x1FFF)
        let train = edges(first, start: boot) + edges(second, start: boot + 12_000_000 + 22_000_000)
        var decoder = WiegandDecoder()
        #expect(decodeAll(train, decoder: &decoder) == [.rejected(.stalled(pause: 22_000_000, afterBits: 13))])
        #expect(decoder.statistics.discardedEdges == 13)
    }

    @Test("a flood of 1,000 edges: one overlong rejection, nothing kept, and the next card decodes")
    func flood() {
        var generator = SeededGenerator(seed: 1000)
        var decoder = WiegandDecoder()
        var events: [WiegandEvent] = []
        var time = boot
        for _ in 0..<1000 {
            time += UInt64.random(in: 300_000...1_500_000, using: &generator)
            let line: WiegandLine = Bool.random(using: &generator) ? .d1 : .d0
            if let event = decoder.feed(WiegandEdge(line: line, timestamp: time)) { events.append(event) }
            #expect(decoder.bitCount <= 64)
        }
        #expect(events == [.rejected(.overlong(limit: 64))])
        #expect(decoder.statistics.discardedEdges == 1000 - 64)
        events += decodeAll(edges(card26, start: time + 25_000_000), decoder: &decoder)
        #expect(events.count == 2)
        #expect(events.last?.card == "26-bit 123/4567")
        #expect(decoder.statistics.edges == 1026)
        #expect(decoder.statistics.cards == 1)
        #expect(decoder.statistics.rejections == 1)
    }

    @Test("an edge a little less than a frame gap after a broken frame is still dropped; the quiet is measured from the last edge")
    func discardingUntilQuiet() {
        var decoder = WiegandDecoder()
        let train = [
            WiegandEdge(line: .d0, timestamp: boot), WiegandEdge(line: .d0, timestamp: boot + 10_000),
            WiegandEdge(line: .d1, timestamp: boot + 24_000_000), WiegandEdge(line: .d1, timestamp: boot + 48_000_000)
        ]
        #expect(decodeAll(train, decoder: &decoder) == [.rejected(.tooFast(line: .d0, interval: 10_000))])
        #expect(decoder.statistics.discardedEdges == 3)
        #expect(decodeAll(edges(card26, start: boot + 73_000_000), decoder: &decoder).first?.isCard == true)
    }

    @Test("a timestamp going back breaks the frame instead of wrapping around")
    func outOfOrder() {
        var train = edges(card26, start: boot)
        train[5].timestamp = train[4].timestamp - 1
        #expect(decodeAll(train) == [.rejected(.outOfOrder)])
    }

    @Test("keypad bursts on the wire: 4-bit, 8-bit and a bad complement, one after the other")
    func keypadBursts() throws {
        let encoder = try WiegandEncoder()
        let one = try encoder.schedule(.digit(1), burst: .fourBit)
        let hash = try encoder.schedule(.hash, burst: .eightBit)
        let train = edges(one, start: boot) + edges(hash, start: boot + 40_000_000)
            + edges(bits("11110001"), start: boot + 80_000_000) + edges(bits("1010"), start: boot + 120_000_000)
        #expect(decodeAll(train) == [
            .key(.digit(1), bits: bits("0001")), .key(.hash, bits: bits("01001011")),
            .rejected(.badKeyComplement(bits: bits("11110001"))), .key(.star, bits: bits("1010"))
        ])
    }

    @Test("noise: one stray pulse is rejected as noise")
    func strayPulse() {
        #expect(decodeAll([WiegandEdge(line: .d0, timestamp: boot)]) == [.rejected(.noise(bits: 1))])
    }

    @Test("finish ends a frame without waiting for the gap")
    func finish() {
        var decoder = WiegandDecoder()
        for edge in edges(card26, start: boot) { _ = decoder.feed(edge) }
        #expect(decoder.finish()?.isCard == true)
        #expect(decoder.finish() == nil)
        #expect(decoder.deadline == nil)
    }

    /// A test VM drives D0/D1 through gpio-sim's pulls from user space: pulses milliseconds apart
    /// with scheduling jitter. Standard timing calls that a stall; a slowed timing reads it.
    @Test("slowed timing (gpio-sim): 20 ms pulses read with a configured tolerance")
    func slowedTiming() throws {
        let slowed = try WiegandDecoder.Timing(minimumInterval: 2_000_000, maximumInterval: 200_000_000, frameGap: 500_000_000)
        var generator = SeededGenerator(seed: 7)
        let train = edges(card26, start: boot, interval: 20_000_000, jitter: 5_000_000, using: &generator)
        #expect(decodeAll(train, timing: slowed).map(\.card) == ["26-bit 123/4567"])
        #expect(decodeAll(train).first?.rejection != nil)
    }

    @Test("a smaller bit limit rejects longer frames as overlong")
    func smallerLimit() throws {
        let timing = try WiegandDecoder.Timing(minimumInterval: 150_000, maximumInterval: 20_000_000, frameGap: 25_000_000, maximumBits: 26)
        #expect(decodeAll(edges(card26, start: boot), timing: timing).first?.isCard == true)
        #expect(decodeAll(edges(card34, start: boot), timing: timing) == [.rejected(.overlong(limit: 26))])
    }

    @Test("timing that cannot work is refused, naming what is needed")
    func badTiming() {
        #expect(throws: WiegandTimingError.inconsistentIntervals(minimum: 0, maximum: 1, frameGap: 2)) {
            try WiegandDecoder.Timing(minimumInterval: 0, maximumInterval: 1, frameGap: 2)
        }
        #expect(throws: WiegandTimingError.inconsistentIntervals(minimum: 5, maximum: 5, frameGap: 9)) {
            try WiegandDecoder.Timing(minimumInterval: 5, maximumInterval: 5, frameGap: 9)
        }
        #expect(throws: WiegandTimingError.inconsistentIntervals(minimum: 1, maximum: 10, frameGap: 9)) {
            try WiegandDecoder.Timing(minimumInterval: 1, maximumInterval: 10, frameGap: 9)
        }
        #expect(throws: WiegandTimingError.maximumBitsOutOfRange(65, allowed: 4...64)) {
            try WiegandDecoder.Timing(minimumInterval: 1, maximumInterval: 10, frameGap: 10, maximumBits: 65)
        }
    }
}
