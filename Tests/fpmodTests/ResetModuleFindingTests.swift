import Foundation
import Testing

/// Issue 10, item 2: with a paired store, a module that answers at the factory address is
/// "not the module paired with this store", from the CLI and from doctor alike (one opener),
/// never "no module / check the wiring". The real binary and its in-process simulator.
@Suite(.serialized)
struct ResetModuleFindingTests {
    static let finding = "a module answers at the factory address, not at the paired one: this is not the module paired with this store"

    /// Paired, then the simulated module loses its flash: factory address and password again.
    static func pairedThenReset() throws -> CLI {
        let cli = CLI()
        let paired = try cli.sim(["pair"])
        #expect(paired.status == 0, "\(paired.stderr)")
        try FileManager.default.removeItem(atPath: cli.simulatorState)
        return cli
    }

    @Test func theCLISaysItIsNotThePairedModule() throws {
        let cli = try Self.pairedThenReset()
        let identify = try cli.sim(["identify"], finger: "alice-right-index")
        #expect(identify.status == 77, "\(identify.stderr)")
        #expect(identify.stderr.contains(Self.finding), "\(identify.stderr)")
        #expect(try cli.auditEvents().contains("module-reset"))
    }

    @Test func doctorSaysItIsNotThePairedModuleInsteadOfAWiringFix() throws {
        let cli = try Self.pairedThenReset()
        let doctor = try cli.sim(["doctor"])
        #expect(doctor.status == 1)
        #expect(doctor.stdout.contains(Self.finding), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("fpmod pair --force"))
        #expect(!doctor.stdout.contains("TX↔RX"), "no wiring checklist for a module that answers: \(doctor.stdout)")
    }

    /// Commands that only read the module used to open it with the pairing's credentials but
    /// no identity check: a reset module was read as if it were the paired one.
    @Test func infoRawAndCaptureRefuseAResetModuleWithTheSameFinding() throws {
        let cli = try Self.pairedThenReset()
        let image = cli.directory + "/finger.png"
        for arguments in [["info"], ["raw", "TempleteNum"], ["capture", "--image", image]] {
            let result = try cli.sim(arguments, finger: "alice-right-index")
            #expect(result.status == 77, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(Self.finding), "\(arguments): \(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: image))
    }

    /// Without a store, or with a store that has no pairing, `info` opens the module as given.
    @Test func infoWorksWithoutAStoreAndWithAnUnpairedOne() throws {
        let cli = CLI()
        let bare = try cli.sim(["info"])
        #expect(bare.status == 0, "\(bare.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.directory + "/store.db"), "info must not create a store")
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        let unpaired = try cli.sim(["info"])
        #expect(unpaired.status == 0, "\(unpaired.stderr)")
        #expect(unpaired.stdout.contains("Templates used:  1"), "\(unpaired.stdout)")
    }

    /// `fpmod sim` as its own process on a pseudo-terminal, the CLI on --port as on hardware:
    /// paired, then the module is replaced by a factory-fresh one (a new flash file).
    @Test func benchInfoRawAndCaptureOnAPortRefuseAReplacedModule() throws {
        let cli = CLI()
        let link = cli.directory + "/sim0", controlPath = cli.directory + "/sim.ctl"
        func startSimulator(state: String) throws -> Process {
            try? FileManager.default.removeItem(atPath: controlPath)
            let simulator = Process()
            simulator.executableURL = URL(fileURLWithPath: CLI.binary)
            simulator.arguments = ["sim", "--link", link, "--control", controlPath, "--state", cli.directory + "/" + state]
            simulator.environment = cli.environment
            simulator.standardOutput = FileHandle.nullDevice
            simulator.standardError = FileHandle.nullDevice
            try simulator.run()
            // The link appears once the module has booted, after the control socket.
            try waitFor("the simulator's control socket and link") {
                FileManager.default.fileExists(atPath: controlPath) && FileManager.default.fileExists(atPath: link)
            }
            return simulator
        }
        let port = ["--port", link]
        let first = try startSimulator(state: "paired.state")
        let paired = try cli.run(port + ["pair"])
        #expect(paired.status == 0, "\(paired.stderr)")
        #expect(try cli.run(port + ["info"]).status == 0, "the paired module is read as before")
        first.terminate()
        first.waitUntilExit()

        let replacement = try startSimulator(state: "fresh.state")
        defer {
            replacement.terminate()
            replacement.waitUntilExit()
        }
        let image = cli.directory + "/finger.png"
        for arguments in [["bench", "--cycles", "1"], ["info"], ["raw", "TempleteNum"], ["capture", "--image", image]] {
            let result = try cli.run(port + arguments)
            #expect(result.status == 77, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains(Self.finding), "\(arguments): \(result.stderr)")
        }
    }
}
