import GPIO
import Testing
import Wiegand
@testable import WiegandOutput

/// The sender's line changes, as the GPIO layer recorded them with their times, read back by the
/// same decoder that reads a reader at the door: what goes out is a frame a panel decodes.
@Suite struct WiegandSenderTests {
    /// Order only: a loaded machine may wake the sender late (a pulse late, the next one at
    /// once after it), which the door's tolerances would rightly refuse; what is checked here is
    /// that the frame's bits go out in order on the right lines.
    static let anyTiming = try! WiegandDecoder.Timing(minimumInterval: 1, maximumInterval: 60_000_000_000, frameGap: 60_000_000_000)

    static func edges(_ chip: MemoryChip, d0: Int, d1: Int) -> [WiegandEdge] {
        chip.outputHistory.filter { !$0.level && ($0.offset == d0 || $0.offset == d1) }
            .map { WiegandEdge(line: $0.offset == d0 ? .d0 : .d1, timestamp: $0.timestampNanoseconds) }
    }

    @Test func framesDecodeAsSent() throws {
        let cards: [(WiegandFormat, UInt32, UInt32)] = [(.w26, 123, 4567), (.w34, 40_961, 51_234), (.w26, 0, 0), (.w26, 255, 65_535)]
        for (format, facility, number) in cards { try check(format: format, facility: facility, number: number) }
    }

    func check(format: WiegandFormat, facility: UInt32, number: UInt32) throws {
        let chip = MemoryChip(lineCount: 4)
        let sender = try WiegandSender(chip: chip, d0: 2, d1: 3, encoder: WiegandEncoder(pulseWidth: 50_000, interval: 1_000_000))
        #expect(chip.outputLevel(offset: 2) == true && chip.outputLevel(offset: 3) == true, "both rest high")
        let sent = try sender.send(WiegandCredential(format: format, facility: facility, number: number))
        #expect(sent.pulses == format.bitCount)
        #expect(chip.outputLevel(offset: 2) == true && chip.outputLevel(offset: 3) == true, "both rest high after the frame")

        var decoder = WiegandDecoder(timing: Self.anyTiming)
        var events = Self.edges(chip, d0: 2, d1: 3).compactMap { decoder.feed($0) }
        if let last = decoder.deadline, let event = decoder.poll(now: last) { events.append(event) }
        #expect(events.count == 1)
        guard case .card(let gotFormat, let gotFacility, let gotNumber, _) = events.first else {
            Issue.record("not a card: \(events)")
            return
        }
        #expect(gotFormat == format && gotFacility == facility && gotNumber == number)
        // Every pulse goes low, then high again on the same line. Order only: the width a test
        // measures depends on when a loaded machine woke it (a Debian 13 run saw 35 us of a 50 us
        // pulse recorded); the sender's own measure of its timing is `Sent` and the VM's g2.
        let history = chip.outputHistory.filter { $0.offset >= 2 }
        var lowSince: [Int: UInt64] = [:]
        var pulses = 0
        for change in history {
            if !change.level { lowSince[change.offset] = change.timestampNanoseconds } else if let since = lowSince.removeValue(forKey: change.offset) {
                #expect(change.timestampNanoseconds >= since)
                pulses += 1
            }
        }
        #expect(pulses == format.bitCount && lowSince.isEmpty)
    }

    @Test func keypadBurstAndRefusals() throws {
        let chip = MemoryChip(lineCount: 4)
        #expect(throws: WiegandSenderError.sameLine("1")) {
            try WiegandSender(chip: chip, d0: 1, d1: 1, encoder: WiegandEncoder())
        }
        #expect(throws: WiegandSenderError.noSuchLine(9, chip: "memorychip0", lineCount: 4)) {
            try WiegandSender(chip: chip, d0: 1, d1: 9, encoder: WiegandEncoder())
        }
        #expect(chip.outputHistory.isEmpty, "nothing was requested")
        let sender = try WiegandSender(chip: chip, d0: 0, d1: 1, encoder: WiegandEncoder())
        try sender.send(.digit(7), burst: .eightBit)
        var decoder = WiegandDecoder(timing: Self.anyTiming)
        var events = Self.edges(chip, d0: 0, d1: 1).compactMap { decoder.feed($0) }
        if let last = decoder.deadline, let event = decoder.poll(now: last) { events.append(event) }
        guard case .key(.digit(7), _) = events.first else {
            Issue.record("not key 7: \(events)")
            return
        }
        #expect(throws: WiegandSenderError.encoder(.notAKey(12))) { try sender.send(.digit(12), burst: .fourBit) }
    }
}
