import ArgumentParsing

// TEMPORARY (bench branch): forwards to the simulator's own runner (Sources/fpmod/SimCommand.swift)
// so tools/bench-peers.sh can start `fpmod sim`. Replace with the real command when it lands.
enum SimCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        var arguments: [String] = []
        for name in ["profile", "link", "control", "state", "timing", "finger", "password", "address"] {
            if let value = parsed.string(name) { arguments += ["--\(name)", value] }
        }
        if parsed.isExplicit("baud"), let baud = parsed.string("baud") { arguments += ["--baud", baud] }
        let code = runSimCommand(arguments)
        return ExitCode(rawValue: code) ?? .ioError
    }
}
