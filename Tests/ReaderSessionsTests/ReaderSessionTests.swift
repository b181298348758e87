import Administration
import Foundation
import ReaderSessions
import Synchronization
import TemplateStore
import Testing
import TestSupport

/// Opening readers from plain options, as any front end does: a simulated module on a real
/// pseudo-terminal and the simulated image sensor, each enrolling and identifying a finger
/// against a real store file; the refusals name their fix.
@Suite struct ReaderSessionTests {
    final class Lines: Sendable {
        let items = Mutex<[String]>([])
        var all: [String] { items.withLock { $0 } }
    }

    static func options(_ folder: ScratchFolder, profile: String, progress lines: Lines) -> ReaderOptions {
        var options = ReaderOptions()
        options.simulator = SimulatorOptions(profile: profile, statePath: folder.file("sim.state"))
        options.storeDatabase = folder.file("store.db")
        options.storeKey = folder.file("store.key")
        options.progress = { line in lines.items.withLock { $0.append(line) } }
        return options
    }

    @Test(arguments: ["r307", "fpc1020"])
    func aSimulatedReaderEnrollsAndIdentifies(profile: String) throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let lines = Lines()
        var options = Self.options(folder, profile: profile, progress: lines)
        options.fingerTimeout = .seconds(7)
        let store = try TemplateStore(databasePath: folder.file("store.db"), keyPath: folder.file("store.key"))
        let session = try ReaderSession.open(options, store: store, virtualFinger: "alice-index")
        defer { session.close() }
        #expect(session.choice == (profile == "fpc1020" ? .simulatedSensor(imagesDirectory: nil) : .module))
        #expect((session.module != nil) == (profile != "fpc1020"))
        #expect(session.reader.fingerTimeout == .seconds(7))
        try session.reader.enroll(user: "alice", label: "right-index")
        guard case .match(let found) = try session.reader.identify() else {
            Issue.record("the enrolled finger was not found")
            return
        }
        #expect(found.user == "alice")
    }

    @Test func aModuleCommandOnTheSimulatedSensorIsRefusedNamingTheWayOut() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        var options = Self.options(folder, profile: "fpc1020", progress: Lines())
        options.command = ["sync"]
        let error = expectThrows(ReaderSessionError.self) { try ModuleSession.open(options) }
        #expect(error == .moduleOnly(command: "sync", reader: .simulatedSensor(imagesDirectory: nil)))
        #expect(error?.description.contains("drop --sim-profile fpc1020") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.file("sim.state")), "nothing was started")
    }

    @Test func withoutAPortOrSimulatorNothingIsOpened() throws {
        let error = expectThrows(ReaderSessionError.self) { try ModuleSession.open(ReaderOptions()) }
        #expect(error == .noPort)
        #expect(error?.kind == .config)
    }

    @Test func twoReadersAreRefusedAndImagesNeedTheSensorProfile() throws {
        var options = ReaderOptions()
        options.port = "/dev/ttyUSB0"
        options.spiDevice = "/dev/spidev0.0"
        #expect(expectThrows(ReaderSessionError.self) { try ReaderChoice(options) }
                == .twoReaders("--port (FPMOD_PORT)", "--spi (FPMOD_SPI)"))
        // A module command with a port: the port is the module meant.
        #expect(try ReaderChoice(options, moduleCommand: true) == .module)
        var images = ReaderOptions()
        images.simulator = SimulatorOptions(profile: "r307", imagesDirectory: "/i", statePath: "/nowhere")
        #expect(expectThrows(ReaderSessionError.self) { try ReaderChoice(images) } == .simulatedImagesNeedSensorProfile)
    }

    @Test func anUnknownProfileIsRefusedBeforeAnythingStarts() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let options = Self.options(folder, profile: "r999", progress: Lines())
        #expect(expectThrows(ReaderSessionError.self) { try ModuleSession.open(options) } == .unknownSimulatorProfile("r999"))
        #expect(!FileManager.default.fileExists(atPath: folder.file("sim.state")))
    }

    @Test func traceReportsEveryExchangeThroughProgress() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let lines = Lines()
        var options = Self.options(folder, profile: "r503", progress: lines)
        options.trace = true
        let session = try ModuleSession.open(options)
        defer { session.close() }
        _ = try session.module.templateCount()
        #expect(lines.all.contains { $0.contains("→") && $0.contains(" B, ") }, "\(lines.all)")
    }
}
