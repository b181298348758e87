import ArgumentParsing
import Posix
import Wiegand
import WiegandInput
import WiegandOutput
import DoorLock
import GPIO
import TemplateStore

/// `fpmod wiegand listen`: a reader's frames as they arrive. The work is WiegandInput's.
enum WiegandCommand {
    static func listen(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        // Every value checked before a line is requested.
        guard let d0 = parsed.string("d0"), let d1 = parsed.string("d1") else {
            throw CommandFailure(.usage, "Give both data lines: --d0 LINE --d1 LINE (offsets or line names).")
        }
        let duration = try parsed.duration("duration") ?? .seconds(60)
        let frames = try parsed.int("frames", range: 1...100_000)
        let timing = try WiegandDecoder.Timing(minimumInterval: (try parsed.duration("min-interval") ?? .microseconds(150)).wholeNanoseconds,
                                               maximumInterval: (try parsed.duration("max-interval") ?? .milliseconds(20)).wholeNanoseconds,
                                               frameGap: (try parsed.duration("gap") ?? .milliseconds(25)).wholeNanoseconds)
        let listener = try WiegandWatch.open(chip: parsed.string("chip") ?? "gpiochip0", d0: d0, d1: d1, timing: timing)
        invocation.progress("Listening on D0 \(d0), D1 \(d1) for \(duration).")
        let seen = try WiegandWatch.run(listener, until: .now + duration, frames: frames) { invocation.emit($0, json: .null) }
        let statistics = listener.statistics
        invocation.emit("\(seen) frames: \(statistics.cards) cards, \(statistics.keys) keys, \(statistics.rejections) rejected.",
                        json: ["frames": .int(Int64(seen)), "cards": .int(Int64(statistics.cards)), "keys": .int(Int64(statistics.keys)),
                               "rejected": .int(Int64(statistics.rejections))])
        return .ok
    }

    /// `fpmod wiegand send 26:FACILITY:NUMBER`: one card frame to a panel's Wiegand input.
    static func send(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        guard let d0 = parsed.string("d0"), let d1 = parsed.string("d1") else {
            throw CommandFailure(.usage, "Give both data lines: --d0 LINE --d1 LINE (offsets or line names).")
        }
        // The spelling `card add` and `card panel` take; a panel is sent Wiegand cards only.
        guard let credential = try CardNumber(parsing: try parsed.require("number")).wiegandCredential else {
            throw CommandFailure(.usage, "a panel is sent a Wiegand card: give 26:FACILITY:NUMBER or 34:FACILITY:NUMBER, e.g. 26:123:4567.")
        }
        let encoder = try WiegandEncoder(pulseWidth: (try parsed.duration("pulse") ?? .microseconds(50)).wholeNanoseconds,
                                         interval: (try parsed.duration("interval") ?? .milliseconds(1)).wholeNanoseconds)
        let chip = try LibgpiodChip(parsed.string("chip") ?? "gpiochip0")
        func offset(_ line: String, _ role: String) throws(WiegandSenderError) -> Int {
            guard let found = chip.lineOffset(spec: line) else { throw .noSuchName(line, role: role, chip: chip.name) }
            return found
        }
        let sender = try WiegandSender(chip: chip, d0: try offset(d0, "D0"), d1: try offset(d1, "D1"), encoder: encoder)
        let sent = try sender.send(credential)
        invocation.emit("Sent a \(credential.format) frame (\(sent.pulses) pulses) on D0 \(d0), D1 \(d1) in \(milliseconds(sent.duration)) ms; "
                        + "widest pulse \(milliseconds(sent.widestPulse)) ms, latest start \(milliseconds(sent.latestStart)) ms after its time.",
                        json: ["format": .string("\(credential.format)"), "pulses": .int(Int64(sent.pulses)),
                               "duration_ns": .int(Int64(sent.duration)), "widest_pulse_ns": .int(Int64(sent.widestPulse)),
                               "latest_start_ns": .int(Int64(sent.latestStart))])
        return .ok
    }

    /// Nanoseconds as milliseconds with two decimals.
    static func milliseconds(_ nanoseconds: UInt64) -> String {
        let hundredths = (nanoseconds + 5_000) / 10_000
        return "\(hundredths / 100)." + (hundredths % 100 < 10 ? "0" : "") + "\(hundredths % 100)"
    }
}
