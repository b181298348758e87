/// `fpmod demo` for any front end: the whole lock service on a simulated module and simulated
/// GPIO in a temporary directory, and its story told scene by scene. Set it up, `play()` it,
/// `tearDown()`; a front end that reports a failed story does so before tearing down, so the
/// service's last log lines follow the report.
public final class DemoShow {
    private let stage: DemoStage
    private var script: DemoScript

    /// Sets the stage: the temporary directory, the simulator and the store (the service starts
    /// during the story). `output` is told the story a line at a time, `serviceLog` the service's
    /// diagnostics; neither line ends in a newline. Unless `fast`, the story pauses between scenes.
    public init(fast: Bool, output: @escaping @Sendable (String) -> Void,
                serviceLog: @escaping @Sendable (String) -> Void) throws {
        stage = try DemoStage(serviceLog: serviceLog)
        script = DemoScript(stage: stage, narrator: DemoNarrator(fast: fast, output: output))
    }

    /// Plays every scene. Throws, naming the scene, when the lock does not behave as the story
    /// tells (a bug: the demo doubles as a smoke test).
    public func play() throws {
        try script.run()
    }

    /// Stops the service (relay off, door locked) and the simulator and removes the directory;
    /// again does nothing.
    public func tearDown() {
        stage.tearDown()
    }

    deinit { stage.tearDown() }
}
