import Administration
import DoorLock
import Foundation
import GPIO
import Glibc
import JSONValue
import ModuleSimulator
import Posix
import ServiceClient
import Synchronization
import TemplateStore
import Testing
import TestSupport

/// A client of the running service, as the CLI's admin commands and a console reach it: a real
/// `LockService` in this process (simulated module on a real pseudo-terminal, real store file,
/// real Unix control socket), found where the config says, gone through only when it serves the
/// store and port the client names.
@Suite struct ServiceConnectionTests {
    final class Lines: Sendable {
        let items = Mutex<[String]>([])
        var all: [String] { items.withLock { $0 } }
    }

    /// A running service with its control socket in `folder`, and a config file naming it.
    final class RunningService {
        let folder = ScratchFolder()
        let simulator: ModuleSimulatorServer
        let service: LockService
        let configPath: String
        var controlSocket: String { folder.file("control.sock") }
        var storePath: String { folder.file("store.db") }

        init() throws {
            simulator = try ModuleSimulatorServer(.init(profile: .r307, timing: .instant))
            simulator.start()
            let store = try TemplateStore(databasePath: folder.file("store.db"), keyPath: folder.file("store.key"))
            configPath = folder.file("config.json")
            let json = #"{"board": "gpio-vm", "control": {"socket": "\#(folder.file("control.sock"))"}}"#
            try json.write(toFile: configPath, atomically: true, encoding: .utf8)
            let config = try LockConfig.load(path: configPath)
            let preset = try config.loadBoard()
            let chip = MemoryChip(preset: preset)
            chip.drive(offset: 0, level: true)  // gpio-vm's active-low touch line at rest
            var options = LockService.Options(eventsSocket: folder.file("events.sock"), controlSocket: folder.file("control.sock"))
            options.modulePort = simulator.devicePath
            options.storePath = folder.file("store.db")
            service = try LockService(config: config, preset: preset, chip: chip,
                                      module: .serial(port: simulator.devicePath, baudRate: 57_600),
                                      store: store, options: options)
            try service.start()
        }

        func address(store: String? = nil, port: String? = nil, progress lines: Lines = Lines()) -> ServiceAddress {
            var address = ServiceAddress(configPath: configPath, environment: [:], storeDatabase: store ?? storePath)
            address.store = store
            address.port = port
            address.progress = { line in lines.items.withLock { $0.append(line) } }
            return address
        }

        deinit {
            service.stop()
            simulator.stop()
            folder.remove()
        }
    }

    @Test func theClientGoesThroughAServiceServingItsStore() throws {
        let running = try RunningService()
        let lines = Lines()
        let address = running.address(store: running.storePath, progress: lines)
        #expect(try address.socketPath() == running.controlSocket)
        let connection = try #require(try ServiceConnection.connectIfRunning(address))
        let reply = try connection.send(.status)
        try ServiceConnection.check(reply)
        #expect(reply["store"]?.stringValue == running.storePath)
        #expect(lines.all.contains { $0.hasPrefix("Going through the running service") }, "\(lines.all)")
        // --direct and a simulator of the client's own go around it.
        var direct = address
        direct.direct = true
        #expect(try ServiceConnection.connectIfRunning(direct) == nil)
    }

    /// Item 3 of issue 23 through the service: the finger steps of an enroll the service runs
    /// reach the client as `EnrollProgress` values, the same ones a front end's prompter gets
    /// when it holds the reader itself, so a console shows them its own way.
    @Test func anEnrollThroughTheServiceArrivesAsFingerSteps() throws {
        let running = try RunningService()
        let connected = ContinuousClock.now + .seconds(10)
        while !running.service.snapshot.moduleConnected {
            try #require(ContinuousClock.now < connected, "the service did not connect to its module")
            Thread.sleep(forTimeInterval: 0.02)
        }
        running.simulator.touch("dora-thumb", times: 6)
        let connection = try #require(try ServiceConnection.connectIfRunning(running.address()))
        var steps: [EnrollProgress] = []
        var worded: [String] = []
        var request = EnrollRequest(user: try UserName(validating: "dora"), label: try FingerLabel(validating: "left-thumb"))
        request.captures = 2
        let reply = try connection.send(.enroll(request), fingerStep: { steps.append($0) }, progress: { worded.append($0) })
        try ServiceConnection.check(reply)
        #expect(worded.isEmpty, "every line carried its step: \(worded)")
        let slot = try #require(reply["slot"]?.intValue)
        #expect(steps.first == .placeFinger(capture: 1, of: 2), "\(steps)")
        #expect(steps.contains(.placeFinger(capture: 2, of: 2)), "\(steps)")
        #expect(steps.contains(.liftFinger), "\(steps)")
        #expect(steps.last == .storing(slot: slot), "\(steps)")

        // Without a step handler, the same lines arrive worded, as a socat user reads them.
        running.simulator.touch("erin-thumb", times: 6)
        request.user = try UserName(validating: "erin")
        var lines: [String] = []
        let again = try #require(try ServiceConnection.connectIfRunning(running.address()))
        try ServiceConnection.check(try again.send(.enroll(request), progress: { lines.append($0) }))
        #expect(lines.first == EnrollProgress.placeFinger(capture: 1, of: 2).description, "\(lines)")
    }

    @Test func aServiceOnTheNamedPortWithAnotherStoreIsRefusedAsBusy() throws {
        let running = try RunningService()
        let address = running.address(store: running.folder.file("other.db"), port: running.simulator.devicePath)
        let error = expectThrows(ServiceClientError.self) { try ServiceConnection.connectIfRunning(address) }
        #expect(error?.kind == .tryLater)
        #expect(error?.description.contains("Use its store (--store \(running.storePath))") == true, "\(error?.description ?? "")")
    }

    @Test func anotherStoreElsewhereIsOpenedDirectly() throws {
        let running = try RunningService()
        let lines = Lines()
        let address = running.address(store: running.folder.file("other.db"), port: "/dev/ttyUSB9", progress: lines)
        #expect(try ServiceConnection.connectIfRunning(address) == nil)
        #expect(lines.all.contains { $0.contains("opens them directly") }, "\(lines.all)")
    }

    @Test func pairingIsRefusedWhileTheServiceHoldsTheStore() throws {
        let running = try RunningService()
        let error = expectThrows(ServiceClientError.self) {
            try ServiceConnection.refuseWhileServing(running.address(), command: "pair")
        }
        #expect(error?.kind == .tryLater)
        #expect(error?.description.contains("the store \(running.storePath)") == true)
        #expect(error?.description.contains("Stop the service first") == true)
    }

    @Test func noServiceMeansDirectAndRequireSaysHowToStartOne() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let address = ServiceAddress(configPath: nil, environment: ["RUNTIME_DIRECTORY": folder.path],
                                     storeDatabase: folder.file("store.db"))
        #expect(try address.socketPath().hasPrefix(folder.path + "/control.sock") || (LockConfig.installedPathIfPresent != nil))
        guard !(LockConfig.installedPathIfPresent != nil) else { return }
        #expect(try ServiceConnection.connectIfRunning(address) == nil)
        let error = expectThrows(ServiceClientError.self) { try ServiceConnection.require(address) }
        #expect(error?.kind == .unavailable)
        #expect(error?.description.contains("start it with `fpmod run`") == true)
    }

    @Test func aSocketNobodyAnswersOnIsLeftOverAndBypassed() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        // A socket bound and closed without listening: the file stays, as after a service was
        // killed, and connecting is refused.
        try Self.bindAndClose(folder.file("control.sock"))
        let config = folder.file("config.json")
        try #"{"control": {"socket": "\#(folder.file("control.sock"))"}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let lines = Lines()
        var address = ServiceAddress(configPath: config, environment: [:], storeDatabase: folder.file("store.db"))
        address.progress = { line in lines.items.withLock { $0.append(line) } }
        #expect(try ServiceConnection.connectIfRunning(address) == nil)
        #expect(lines.all.contains { $0.hasPrefix("Nobody answers on \(folder.file("control.sock"))") }, "\(lines.all)")
    }

    static func bindAndClose(_ path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { Glibc.close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.prefix(bytes.count - 1).enumerated() { bytes[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0)
    }

    @Test func aNamedConfigThatDoesNotLoadIsAConfigError() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        try "{ not json".write(toFile: folder.file("config.json"), atomically: true, encoding: .utf8)
        let address = ServiceAddress(configPath: folder.file("config.json"), environment: [:], storeDatabase: folder.file("s.db"))
        #expect(expectThrows(ServiceClientError.self) { try address.socketPath() }?.kind == .config)
    }

    @Test func aRefusalKeepsItsKind() {
        let cases: [(String?, String?, ServiceClientError.Kind)] = [
            ("usage", nil, .usage), ("busy", nil, .tryLater), ("unavailable", nil, .unavailable),
            ("denied", nil, .denied), ("refused", nil, .denied), (nil, "denied", .denied), (nil, nil, .io),
        ]
        for (code, result, kind) in cases {
            var reply: [String: JSONValue] = ["ok": .bool(false), "error": .string("no")]
            if let code { reply["code"] = .string(code) }
            if let result { reply["result"] = .string(result) }
            let error = expectThrows(ServiceClientError.self) { try ServiceConnection.check(reply) }
            #expect(error?.kind == kind, "\(reply)")
            #expect(error?.description == "The service refused it: no")
        }
        // Only `true` is success: a reply that does not say so did not succeed.
        #expect(expectThrows(ServiceClientError.self) { try ServiceConnection.check(["ok": .string("true")]) } != nil)
    }
}
