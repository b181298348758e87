/// A fault to inject into the simulated module's replies.
public enum Fault: Equatable, Sendable, CustomStringConvertible {
    /// The next reply has one checksum byte flipped.
    case corrupt
    /// The next reply is not sent (the command still takes effect).
    case drop
    /// Junk bytes come before the next reply.
    case garbage
    /// Line noise: every reply has a checksum byte flipped until `fault none` or a power cycle.
    case noise
    /// The module neither answers nor acts until `fault none` or a power cycle (hung firmware).
    case silence
    /// Extra delay before every reply from now on.
    case delay(milliseconds: Int)
    /// Clears every fault.
    case none

    public var description: String {
        switch self {
        case .corrupt: "corrupt"
        case .drop: "drop"
        case .garbage: "garbage"
        case .noise: "noise"
        case .silence: "silence"
        case let .delay(milliseconds): "delay \(milliseconds)"
        case .none: "none"
        }
    }
}

/// One line of the control protocol (`--control PATH`), also what the Swift control API sends.
public enum ControlCommand: Equatable, Sendable {
    case place(name: String, quality: CaptureQuality)
    case lift
    case touch(name: String, quality: CaptureQuality, times: Int)
    case powerCycle
    case fault(Fault)
    case status

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    static let usage = "commands: place NAME [poor|partial], lift, touch NAME [N] [poor|partial], power-cycle, "
        + "fault corrupt|drop|garbage|noise|silence|delay MS|none, status"

    /// Parses `place alice-right-index`, `touch bob 2`, `fault delay 50`, …
    public init(line: String) throws(ParseError) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let verb = words.first?.lowercased() else { throw ParseError(message: "empty command; " + ControlCommand.usage) }
        let arguments = Array(words.dropFirst())
        switch verb {
        case "place":
            guard (1...2).contains(arguments.count) else { throw ParseError(message: "usage: place NAME [poor|partial]") }
            self = .place(name: arguments[0], quality: try ControlCommand.quality(arguments.dropFirst().first))
        case "lift":
            self = .lift
        case "touch":
            guard (1...3).contains(arguments.count) else { throw ParseError(message: "usage: touch NAME [N] [poor|partial]") }
            var times = 1
            var quality = CaptureQuality.good
            for word in arguments.dropFirst() {
                if let count = Int(word) {
                    guard count >= 1 else { throw ParseError(message: "touch count must be at least 1, got \(word)") }
                    times = count
                } else {
                    quality = try ControlCommand.quality(word)
                }
            }
            self = .touch(name: arguments[0], quality: quality, times: times)
        case "power-cycle", "powercycle", "reset":
            self = .powerCycle
        case "status":
            self = .status
        case "fault":
            guard let kind = arguments.first?.lowercased() else {
                throw ParseError(message: "usage: fault corrupt|drop|garbage|noise|silence|delay MS|none")
            }
            switch kind {
            case "corrupt": self = .fault(.corrupt)
            case "drop": self = .fault(.drop)
            case "garbage": self = .fault(.garbage)
            case "noise": self = .fault(.noise)
            case "silence": self = .fault(.silence)
            case "none", "clear": self = .fault(.none)
            case "delay":
                guard arguments.count == 2, let milliseconds = Int(arguments[1]), milliseconds >= 0 else {
                    throw ParseError(message: "usage: fault delay MS (a whole number of milliseconds)")
                }
                self = .fault(.delay(milliseconds: milliseconds))
            default:
                throw ParseError(message: "unknown fault \"\(kind)\"; use corrupt, drop, garbage, noise, silence, delay MS or none")
            }
        default:
            throw ParseError(message: "unknown command \"\(verb)\"; " + ControlCommand.usage)
        }
    }

    static func quality(_ word: String?) throws(ParseError) -> CaptureQuality {
        guard let word else { return .good }
        guard let quality = CaptureQuality(rawValue: word.lowercased()) else {
            throw ParseError(message: "unknown capture quality \"\(word)\"; use good, poor or partial")
        }
        return quality
    }
}
