import DoorLock
import Foundation
import GPIO
import Testing

/// Issue 21, item 9: a config's problems all at once — bad keys, the board, the lines against
/// the preset's chip (its line count, a Pi's header) — and a directory called what it is.
struct LockConfigCheckTests {
    @Test func threeDistinctProblemsAreAllListed() {
        let json = #"""
            {"board": "rpi4", "scanIntervalMs": 10,
             "gpio": {"lines": {"relay": {"offset": 99}, "tamper": {"offset": 17}}}}
            """#
        let check = LockConfigCheck(data: Data(json.utf8))
        #expect(check.problems.count == 3, "\(check.problems)")
        #expect(check.problems.contains { $0.hasPrefix("scanIntervalMs: 10 is out of range") })
        #expect(check.problems.contains("gpio.lines.relay.offset: 99 is beyond gpiochip0's 58 lines (pinctrl-bcm2711); use 0 to 57"))
        #expect(check.problems.contains { $0.hasPrefix("gpio.lines.tamper.offset: line 17 is already used for touch") })
        #expect(throws: LockConfigError.self) { _ = try check.usable(source: "test") }
    }

    @Test func aBadBoardStillLetsTheKeysBeChecked() {
        let check = LockConfigCheck(data: Data(#"{"board": "nosuch", "baudRate": 1234}"#.utf8))
        #expect(check.problems.count == 2, "\(check.problems)")
        #expect(check.problems.contains { $0.hasPrefix("board: No board preset named 'nosuch'") })
        #expect(check.problems.contains { $0.hasPrefix("baudRate: 1234 is not a module baud rate") })
    }

    @Test(arguments: [("rpi3", 54), ("rpi4", 58), ("rpi-zero2w", 54), ("rpi5", 54), ("gpio-vm", 16)])
    func anOffsetBeyondThePresetsChipIsRefused(board: String, lines: Int) throws {
        let json = #"{"board": "\#(board)", "gpio": {"lines": {"relay": {"offset": \#(lines)}}}}"#
        let check = LockConfigCheck(data: Data(json.utf8))
        #expect(check.problems.count == 1, "\(check.problems)")
        #expect(check.problems.first?.hasPrefix("gpio.lines.relay.offset: \(lines) is beyond gpiochip0's \(lines) lines") == true,
                "\(check.problems)")
        #expect(check.problems.first?.hasSuffix("use 0 to \(lines - 1)") == true)
        // The simulated chip of `fpmod run --sim-gpio` is as large as the preset's.
        let preset = try #require(check.preset)
        #expect(MemoryChip(preset: preset).lineCount == lines)
    }

    @Test func aPiLineOffTheHeaderIsRefusedAndAHeaderLineIsFine() {
        let off = LockConfigCheck(data: Data(#"{"board": "rpi4", "gpio": {"lines": {"relay": {"offset": 40}}}}"#.utf8))
        #expect(off.problems == ["gpio.lines.relay.offset: GPIO40 is a line of gpiochip0 but not on the 40-pin header, "
                                 + "so nothing can be wired to it; use a header GPIO, BCM 0 to 27"])
        let on = LockConfigCheck(data: Data(#"{"board": "rpi4", "gpio": {"lines": {"relay": {"offset": 21}}}}"#.utf8))
        #expect(on.problems.isEmpty, "\(on.problems)")
        // Another chip named by the config is not the preset's: only the chip itself can say.
        let other = LockConfigCheck(data: Data(#"{"board": "rpi4", "gpio": {"chip": "gpiochip9", "lines": {"relay": {"offset": 99}}}}"#.utf8))
        #expect(other.problems.isEmpty, "\(other.problems)")
    }

    @Test func aDirectoryIsCalledADirectory() throws {
        let directory = NSTemporaryDirectory() + "fpmod-config-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let check = LockConfigCheck(path: directory)
        #expect(check.problems == ["\(directory) is a directory; give the config file itself (a JSON file), e.g. /etc/fpmod/config.json"])
        try Data("{}".utf8).write(to: URL(fileURLWithPath: directory + "/config.json"))
        #expect(LockConfigCheck(path: directory).problems.first?.hasSuffix("did you mean \(directory)/config.json?") == true)
    }
}
