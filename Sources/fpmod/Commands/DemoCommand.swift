import ArgumentParsing

/// `fpmod demo [--fast]`: the whole lock service on a simulated module and simulated GPIO,
/// narrated scene by scene (Demo/DemoScript.swift). Needs no hardware and no root; everything
/// lives in a temporary directory that is removed at the end. Exits 1 when the story goes wrong.
enum DemoCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let stage = try DemoStage()
        defer { stage.tearDown() }
        var script = DemoScript(stage: stage, narrator: DemoNarrator(fast: invocation.parsed.flag("fast")))
        do {
            try script.run()
        } catch {
            StandardStreams.writeError("The demo went off script: \(error)\nThis is a bug in fpmod; please report it with the output above.\n")
            return .denied
        }
        stage.tearDown()
        StandardStreams.writeOutput("\nThe service stopped: relay off, door locked, temporary files removed.\n"
            + "Next: fpmod --sim info, fpmod --sim enroll NAME, or fpmod setup on a Raspberry Pi with a module.\n")
        return .ok
    }
}
