import DoorLock
import Foundation
import JSONValue
import Posix
import ReaderSessions
import ServiceAssembly
import Synchronization
import Testing
import TestSupport

/// The service built as `fpmod run` builds it, through the library call itself: a config file,
/// a real store file and a simulator on a real pseudo-terminal (or the simulated image sensor)
/// in a scratch folder, started on its own thread as a console would, reached through its
/// control socket, and stopped.
@Suite struct AssembledServiceTests {
    final class Lines: Sendable {
        let items = Mutex<[String]>([])
        func append(_ line: String) { items.withLock { $0.append(line) } }
        var all: [String] { items.withLock { $0 } }
    }

    static func writeConfig(_ folder: ScratchFolder, extra: String = "") throws -> String {
        let path = folder.file("config.json")
        let json = #"{"board": "gpio-vm", "control": {"socket": "\#(folder.file("control.sock"))"}, "#
            + #""events": {"socket": "\#(folder.file("events.sock"))"}\#(extra)}"#
        try json.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func settings(_ folder: ScratchFolder, profile: String, progress: Lines) throws -> ServiceSettings {
        var settings = ServiceSettings()
        settings.configPath = try writeConfig(folder)
        settings.simulatedGPIO = true
        settings.simulator = SimulatorOptions(profile: profile, statePath: folder.file("sim.state"))
        settings.storeDatabase = folder.file("store.db")
        settings.storeKey = folder.file("store.key")
        // No NOTIFY_SOCKET or WATCHDOG_USEC of whoever runs the tests.
        settings.environment = [:]
        settings.softwareVersion = "fpmod-test"
        settings.progress = { progress.append($0) }
        return settings
    }

    /// One line to a socket and its one-line reply.
    static func request(_ path: String, _ line: String) throws -> String {
        let connection = try UnixConnection.connect(path: path)
        defer { connection.close() }
        try connection.send(line: line)
        return try connection.readLine(deadline: .now + .seconds(10)) ?? ""
    }

    static func status(_ service: AssembledService) throws -> [String: JSONValue] {
        guard case .object(let object) = try JSONValue(parsing: try request(service.controlSocket, "status")) else { return [:] }
        return object
    }

    static func waitFor(_ what: String, timeout: Duration = .seconds(20), _ condition: () throws -> Bool) throws {
        let deadline = ContinuousClock.now + timeout
        while !((try? condition()) ?? false) {
            guard ContinuousClock.now < deadline else {
                Issue.record("timed out waiting for \(what)")
                return
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    @Test(arguments: ["r307", "fpc1020"])
    func aSimulatedServiceComesUpFromItsConfigAnswersAndStops(profile: String) throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let progress = Lines()
        let service = try AssembledService.assemble(try Self.settings(folder, profile: profile, progress: progress))
        defer { service.stop() }
        #expect(service.board == "gpio-vm")
        #expect(service.configPath == folder.file("config.json"))
        #expect(service.storeDatabase == folder.file("store.db"))
        #expect(service.storeKey == folder.file("store.key"))
        #expect(service.controlSocket == folder.file("control.sock"))
        #expect(service.isImageSensor == (profile == "fpc1020"))
        // The simulator serves beside the service's sockets, and says how to drive it.
        let simulatorControl = folder.file("sim-control.sock")
        #expect(progress.all.contains { $0.hasPrefix("Simulated ") && $0.contains("'exit', 'door open'") && $0.hasSuffix("on \(simulatorControl).") },
                "\(progress.all)")

        let journal = Lines()
        service.observeJournal { event in journal.append(event.name + " " + event.fields.keys.sorted().map { "\($0)=\(event.fields[$0] ?? "")" }.joined(separator: " ")) }
        try service.start()
        try Self.waitFor("the service to report its reader connected") { try Self.status(service)["module"]?.stringValue == "connected" }
        let status = try Self.status(service)
        #expect(status["locked"]?.boolValue == true, "\(status)")
        #expect(status["store"]?.stringValue == folder.file("store.db"))
        #expect(status["port"]?.stringValue == service.readerLocation)
        #expect(FileManager.default.fileExists(atPath: folder.file("store.db")))

        // The simulated GPIO is wired to the simulator's control socket: the exit button unlocks.
        #expect(try Self.request(simulatorControl, "exit").hasPrefix("ok"))
        try Self.waitFor("the exit button's unlock in the journal") { journal.all.contains { $0.hasPrefix("unlocked") && $0.contains("reason=exitButton") } }

        service.stop()
        #expect(!service.service.snapshot.running)
        #expect(throws: (any Error).self, "the control socket is closed") { try Self.request(service.controlSocket, "status") }
        service.stop()
    }

    @Test func withoutAConfigOrASimulatorNothingIsBuilt() throws {
        let error = expectThrows(ServiceAssemblyError.self) { try AssembledService.assemble(ServiceSettings()) }
        #expect(error == .noConfiguration)
        #expect(error?.description.contains("--sim --sim-gpio") == true)
    }

    @Test func aConfigWithProblemsIsRefusedNamingThemBeforeAnythingStarts() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        var settings = try Self.settings(folder, profile: "r307", progress: Lines())
        try #"{"board": "no-such-board", "relayPulseSecs": 3}"#.write(toFile: folder.file("config.json"), atomically: true, encoding: .utf8)
        settings.configPath = folder.file("config.json")
        let error = expectThrows(ServiceAssemblyError.self) { try AssembledService.assemble(settings) }
        guard case .config(let problems) = error else {
            Issue.record("not a config refusal: \(String(describing: error))")
            return
        }
        #expect(problems.contains(folder.file("config.json")), "\(problems)")
        #expect(problems.contains("relayPulseSecs"), "\(problems)")
        #expect(!FileManager.default.fileExists(atPath: folder.file("store.db")), "no store was made")
        #expect(!FileManager.default.fileExists(atPath: folder.file("sim-control.sock")), "no simulator was started")
    }

    /// With no config file, a simulator runs on the defaults: the board `gpio-vm` with --sim-gpio.
    @Test func aSimulatorRunsOnTheDefaultsWithoutAConfigFile() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        var settings = try Self.settings(folder, profile: "r307", progress: Lines())
        settings.configPath = nil
        // The default socket directory, in the scratch folder.
        settings.environment = ["RUNTIME_DIRECTORY": folder.path]
        let service = try AssembledService.assemble(settings)
        defer { service.stop() }
        #expect(service.configPath == nil)
        #expect(service.board == "gpio-vm")
        #expect(service.controlSocket.hasPrefix(folder.path), "\(service.controlSocket)")
    }
}
