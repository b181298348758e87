import ArgumentParsing
import Posix
import Wiegand
import WiegandInput

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
}
