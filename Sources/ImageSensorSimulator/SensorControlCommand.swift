/// One line of the simulated sensor's control protocol: the finger verbs of the simulated
/// module's (`ControlCommand` in ModuleSimulator), so tests and tools drive both alike.
public enum SensorControlCommand: Equatable, Sendable {
    case place(String)
    case lift
    case touch(String)
    /// `auto-touch NAME` / `auto-touch off`: `SimulatedImageSensor.autoTouch`.
    case autoTouch(String?)
    case status

    public static let usage = "commands: place NAME, lift, touch NAME, auto-touch NAME|off, status"

    /// Parses `place alice-right-index`, `lift`, … ; the error is the reply's text.
    public init(line: String) throws(ParseError) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let verb = words.first?.lowercased() else { throw ParseError(message: "empty command; " + Self.usage) }
        let arguments = Array(words.dropFirst())
        switch (verb, arguments.count) {
        case ("place", 1): self = .place(arguments[0])
        case ("touch", 1): self = .touch(arguments[0])
        case ("lift", 0): self = .lift
        case ("status", 0): self = .status
        case ("auto-touch", 1): self = .autoTouch(arguments[0].lowercased() == "off" ? nil : arguments[0])
        case ("place", _), ("touch", _), ("auto-touch", _):
            throw ParseError(message: "usage: \(verb) NAME" + (verb == "auto-touch" ? "|off" : "") + " (one finger name, no spaces)")
        case ("lift", _), ("status", _):
            throw ParseError(message: "usage: \(verb) (no arguments)")
        default:
            throw ParseError(message: "unknown command \"\(verb)\"; " + Self.usage)
        }
    }

    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }
}
