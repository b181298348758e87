import ArgumentParsing
import Demo

/// `fpmod demo [--fast]`: the whole lock service on a simulated module and simulated GPIO,
/// narrated scene by scene (Sources/Demo). Needs no hardware and no root; everything lives in
/// a temporary directory that is removed at the end. Exits 1 when the story goes wrong.
enum DemoCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let show = try DemoShow(fast: invocation.parsed.flag("fast"), output: { StandardStreams.writeOutput($0 + "\n") },
                                serviceLog: { StandardStreams.writeError("service: " + $0 + "\n") })
        defer { show.tearDown() }
        do {
            try show.play()
        } catch {
            StandardStreams.writeError("The demo went off script: \(error)\nThis is a bug in fpmod; please report it with the output above.\n")
            return .denied
        }
        show.tearDown()
        StandardStreams.writeOutput("\nThe service stopped: relay off, door locked, temporary files removed.\n"
            + "Next: fpmod --sim info, fpmod --sim enroll NAME, or fpmod setup on a Raspberry Pi with a module.\n")
        return .ok
    }
}
