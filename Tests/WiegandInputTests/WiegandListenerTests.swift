import Foundation
import GPIO
import Testing
import Wiegand
import WiegandInput

/// The listener on GPIO edges: the in-memory chip's lines here (stamped on CLOCK_MONOTONIC as the
/// kernel stamps them); the real gpio-sim chip in the GPIO VM (`fpmod wiegand listen`).
struct WiegandListenerTests {
    static let timing = try! WiegandDecoder.Timing(minimumInterval: 20_000, maximumInterval: 50_000_000, frameGap: 80_000_000)

    /// A chip with D0 on line 3 and D1 on line 5, both idle high.
    static func chip() -> MemoryChip {
        let chip = MemoryChip(lineCount: 8)
        chip.drive(offset: 3, level: true)
        chip.drive(offset: 5, level: true)
        return chip
    }

    /// Pulses each bit low on its line, about 0.3 ms apart.
    static func send(_ bits: String, on chip: MemoryChip) {
        for bit in bits {
            let offset = bit == "1" ? 5 : 3
            chip.drive(offset: offset, level: false)
            chip.drive(offset: offset, level: true)
            Thread.sleep(forTimeInterval: 0.0003)
        }
    }

    @Test func aCardAKeyAndABadFrameArriveInOrder() throws {
        let chip = Self.chip()
        let listener = try WiegandListener(chip: chip, d0: 3, d1: 5, timing: Self.timing)
        Self.send("10111101100010001110101110", on: chip)  // 26-bit, facility 123, number 4567
        var events = try listener.next(until: .now + .seconds(5))
        guard case .card(.w26, 123, 4567, _)? = events.first else {
            Issue.record("no card: \(events)")
            return
        }
        Self.send("0101", on: chip)  // key 5
        events = try listener.next(until: .now + .seconds(5))
        #expect(events.count == 1)
        guard case .key(.digit(5), _)? = events.first else {
            Issue.record("no key 5: \(events)")
            return
        }
        Self.send("10111101100010001110101111", on: chip)  // the last parity bit flipped
        events = try listener.next(until: .now + .seconds(5))
        guard case .rejected(.badParity)? = events.first else {
            Issue.record("a bad frame was not rejected: \(events)")
            return
        }
        #expect(listener.statistics.cards == 1 && listener.statistics.keys == 1 && listener.statistics.rejections == 1)
    }

    @Test func nothingSentIsNothingHeardByTheDeadline() throws {
        let listener = try WiegandListener(chip: Self.chip(), d0: 3, d1: 5, timing: Self.timing)
        #expect(try listener.next(until: .now + .milliseconds(100)).isEmpty)
    }

    @Test func linesAreCheckedBeforeAnyIsRequested() {
        let chip = Self.chip()
        #expect(throws: WiegandListenerError.sameLine("3")) { _ = try WiegandListener(chip: chip, d0: 3, d1: 3, timing: Self.timing) }
        #expect(throws: WiegandListenerError.noSuchLine(9, chip: "memorychip0", lineCount: 8)) {
            _ = try WiegandListener(chip: chip, d0: 3, d1: 9, timing: Self.timing)
        }
        #expect(chip.consumer(offset: 3) == nil, "nothing was requested")
    }
}
