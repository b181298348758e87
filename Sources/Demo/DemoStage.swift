import Administration
import DoorLock
import FingerprintModule
import FingerprintProtocol
import Foundation
import GPIO
import Glibc
import JSONValue
import ModuleSimulator
import Posix
import SerialPort
import Synchronization
import TemplateStore

/// The demo's world, all real parts in one process: a temporary directory, a `ModuleSimulatorServer`
/// on a real pseudo-terminal with datasheet timing (so the latencies are a real module's), a real
/// store, and a memory GPIO chip laid out like a Raspberry Pi 4. The lock service is started on it
/// later (`startService`), after the people are enrolled.
///
/// The script plays the outside world through it: a finger on the sensor, the door, the exit button.
final class DemoStage {
    static let profile = SimulatorProfile.r307
    static let board = "rpi4"

    let directory: String
    let simulator: ModuleSimulatorServer
    let store: TemplateStore
    private(set) var service: LockService?
    private(set) var chip: MemoryChip?
    private(set) var lines: [LineRole: ResolvedLine] = [:]
    private(set) var controlSocket = ""
    private let received = DemoEventLog()
    private let serviceLog: @Sendable (String) -> Void
    private var tornDown = false

    /// `serviceLog` receives the lock service's diagnostics, one line each, without a newline.
    init(serviceLog: @escaping @Sendable (String) -> Void) throws {
        self.serviceLog = serviceLog
        directory = try Self.makeTemporaryDirectory()
        do {
            simulator = try ModuleSimulatorServer(.init(profile: Self.profile, timing: .datasheet))
            simulator.start()
            store = try TemplateStore(databasePath: directory + "/store.db", keyPath: directory + "/store.key")
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// Stops the service (relay off, lines released) and the simulator, and removes the directory.
    func tearDown() {
        guard !tornDown else { return }
        tornDown = true
        service?.stop()
        service = nil
        simulator.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    // MARK: Administration (before the service holds the port)

    /// An administrator on the simulated module, opened as `fpmod enroll` opens one: with the
    /// store's pairing when there is one. Close it with `closeAdministrator` before the service starts.
    func openAdministrator() throws -> Administrator {
        let port = simulator.devicePath
        var opened: FingerprintModule?
        return try AdministrationOpener.open(store: store, unpaired: (Frame.defaultAddress, 0)) { address, password, _ in
            if let module = opened { module.transport.close() }
            let module = try FingerprintModule.open(port: port, baudRate: 57_600, address: address, password: password)
            opened = module
            return module
        }
    }

    func closeAdministrator(_ administrator: Administrator) {
        administrator.module.transport.close()
    }

    // MARK: The service

    /// Parses and validates `configJSON` like `fpmod config check`, then starts the lock service on
    /// the simulated module (with the paired credentials) and a memory chip from the board preset.
    func startService(configJSON: String) throws -> LockConfig {
        let config = try LockConfig.parse(Data(configJSON.utf8), source: "demo configuration")
        let preset = try config.loadBoard()
        let chip = MemoryChip(preset: preset)
        let identity = try store.moduleIdentity()
        let family = identity.flatMap { ModuleFamily(rawValue: $0.family) }
        lines = config.resolvedLines(preset: preset, family: family)
        self.chip = chip
        // Every input at rest before the service reads them: no finger, door shut, button up, enclosure closed.
        for role in [LineRole.touch, .exitButton, .doorContact, .tamper] { drive(role, active: false) }

        var options = LockService.Options(config: config)
        options.backoffInitial = .milliseconds(200)
        options.backoffMaximum = .seconds(1)
        controlSocket = options.controlSocket
        let port = simulator.devicePath
        let address = identity?.address ?? Frame.defaultAddress
        let password = identity?.password ?? 0
        let service = try LockService(
            config: config, preset: preset, chip: chip,
            module: .serial(port: port, baudRate: 57_600, family: family, unpairedAddress: address, unpairedPassword: password),
            store: store, options: options)
        service.log = serviceLog
        service.onEvent = { [received] event in received.append(event) }
        try service.start()
        self.service = service
        try waitUntil("the lock service to connect to the module") { service.snapshot.moduleConnected }
        return config
    }

    // MARK: The outside world

    /// Sets a role's input to its logical state; the physical level follows the line's polarity.
    func drive(_ role: LineRole, active: Bool) {
        guard let line = lines[role], let chip else { return }
        chip.drive(offset: line.offset, level: active != line.activeLow)
    }

    /// A finger on the sensor: the module sees it, then the touch line goes active.
    func press(_ finger: String) {
        simulator.place(finger)
        drive(.touch, active: true)
    }

    func lift() {
        simulator.lift()
        drive(.touch, active: false)
    }

    /// Presses `finger`, waits for the event named `expected` (one of a scan's outcomes), lifts.
    @discardableResult
    func touch(_ finger: String, expecting expected: String) throws -> LockEvent {
        let before = eventCount
        press(finger)
        defer { lift() }
        return try waitForEvent(named: expected, after: before)
    }

    /// The relay as its pin shows it (set before the decision's events are emitted, unlike the
    /// service's snapshot, which is published at the end of a loop turn).
    var relayIsOn: Bool {
        guard let line = lines[.relay], let level = chip?.outputLevel(offset: line.offset) else { return false }
        return level != line.activeLow
    }

    /// One control-socket command (as a keypad would send it) and its JSON reply.
    func control(_ line: String) throws -> [String: JSONValue] {
        let connection = try UnixConnection.connect(path: controlSocket)
        defer { connection.close() }
        try connection.send(line: line)
        guard let reply = try connection.readLine(deadline: .now + .seconds(15)),
              case .object(let object) = try JSONValue(parsing: reply) else {
            throw DemoFailure("the control socket did not answer '\(line)' with a JSON object")
        }
        return object
    }

    // MARK: Events

    var events: [LockEvent] { received.all }
    var eventCount: Int { received.count }

    @discardableResult
    func waitForEvent(named name: String, after index: Int, timeout: Duration = .seconds(15)) throws -> LockEvent {
        var found: LockEvent?
        try waitUntil("the '\(name)' event (seen: \(events.dropFirst(index).map(\.name).joined(separator: ", ")))", timeout: timeout) {
            found = self.events.dropFirst(index).first { $0.name == name }
            return found != nil
        }
        return found!
    }

    /// Polls `condition` every 5 ms until it holds; a bound, not a measurement.
    func waitUntil(_ what: String, timeout: Duration = .seconds(15), _ condition: () throws -> Bool) throws {
        let deadline = ContinuousClock.now + timeout
        while try !condition() {
            guard ContinuousClock.now < deadline else { throw DemoFailure("timed out waiting for \(what)") }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    private static func makeTemporaryDirectory() throws -> String {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/fpmod-demo-XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else {
            throw DemoFailure("could not create a temporary directory in \(base): \(String(cString: strerror(errno))); set TMPDIR to a writable directory")
        }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Every event the service reported, in order (written on the service thread, read by the script).
final class DemoEventLog: Sendable {
    private let items = Mutex<[LockEvent]>([])
    func append(_ event: LockEvent) { items.withLock { $0.append(event) } }
    var all: [LockEvent] { items.withLock { $0 } }
    var count: Int { items.withLock { $0.count } }
}

/// The story did not go as told: which scene and what happened instead.
struct DemoFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
