import AccessPolicy
import DoorLock
import FingerprintModule
import Foundation
import GPIO
import ModuleSimulator
import Posix
import Synchronization
import TemplateStore

/// A whole lock on real parts: the service, a `ModuleSimulatorServer` on a real PTY, a real
/// store in a temp directory, real Unix sockets, and a memory GPIO chip laid out like gpio-vm.
final class LockHarness: @unchecked Sendable {
    let directory: String
    let simulator: ModuleSimulatorServer
    let store: TemplateStore
    let chip: MemoryChip
    let preset: BoardPreset
    let service: LockService
    let options: LockService.Options
    private let received = EventLog()
    /// The service's log lines (also printed with FPMOD_TEST_LOG set).
    let logLines = LineLog()

    // gpio-vm offsets
    static let touch = 0, relay = 1, exitButton = 2, doorContact = 3, tamper = 4

    static let profile = SimulatorProfile.r307

    init(configJSON: String = "{}", touchLine: Bool = true, enroll: Bool = true,
         beforeStart: (ModuleSimulatorServer) -> Void = { _ in },
         configLoader: (@Sendable () throws -> LockConfig)? = nil,
         configureOptions: (inout LockService.Options) -> Void = { _ in },
         waitForModule: Bool = true, timeouts: CommandTimeouts = LockHarness.timeouts(),
         clock: LockClock = .system,
         setUpStore: (TemplateStore) throws -> Void = { _ in }) throws {
        var template = [CChar]("/tmp/fpl-XXXXXX".utf8CString)
        guard mkdtemp(&template) != nil else { throw HarnessError("mkdtemp failed") }
        directory = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        simulator = try ModuleSimulatorServer(.init(profile: Self.profile, timing: .instant))
        simulator.start()
        store = try TemplateStore(databasePath: directory + "/store.db", keyPath: directory + "/store.key")
        if enroll {
            try store.addUser(name: "alice")
            try store.setPIN("4826", for: "alice")
            try store.addUser(name: "boss", role: .admin)
            try store.setPIN("7391", for: "boss")
            Self.enroll(simulator, finger: "alice-index", slot: 0)
            try store.addFinger(user: "alice", label: "right-index", slot: 0, template: Self.template(for: "alice-index"), quality: 100)
        }
        beforeStart(simulator)
        try setUpStore(store)
        var json = try JSONSerialization.jsonObject(with: Data(configJSON.utf8)) as? [String: Any] ?? [:]
        json["board"] = json["board"] ?? "gpio-vm"
        if !touchLine {
            var gpio = json["gpio"] as? [String: Any] ?? [:]
            gpio["lines"] = ["touch": NSNull()]
            json["gpio"] = gpio
        }
        let config = try LockConfig.parse(try JSONSerialization.data(withJSONObject: json))
        preset = try config.loadBoard()
        chip = MemoryChip(preset: preset)
        chip.drive(offset: Self.touch, level: true)  // active-low touch: high = no finger
        var options = LockService.Options(eventsSocket: directory + "/events.sock", controlSocket: directory + "/control.sock")
        options.backoffInitial = .milliseconds(100)
        options.backoffMaximum = .milliseconds(400)
        configureOptions(&options)
        self.options = options
        let devicePath = simulator.devicePath
        service = try LockService(config: config, preset: preset, chip: chip,
                                  module: .serial(port: devicePath, baudRate: 57_600, timeouts: timeouts),
                                  store: store, clock: clock, options: options, configLoader: configLoader)
        service.log = { [logLines] line in
            logLines.items.withLock { $0.append(line) }
            if ProcessInfo.processInfo.environment["FPMOD_TEST_LOG"] != nil { print("service: " + line) }
        }
        service.onEvent = { [received] event in received.items.withLock { $0.append(event) } }
        try service.start()
        if waitForModule { try waitUntil("the module connects") { self.service.snapshot.moduleConnected } }
    }

    deinit {
        service.stop()
        simulator.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    static func timeouts() -> CommandTimeouts {
        var timeouts = CommandTimeouts()
        timeouts.ordinary = .milliseconds(400)
        timeouts.flashWrite = .seconds(1)
        timeouts.searchBase = .milliseconds(400)
        timeouts.dataPacket = .milliseconds(400)
        timeouts.probe = .milliseconds(200)
        timeouts.bootWait = .milliseconds(200)
        return timeouts
    }

    /// The template the simulator would build for `finger`, put straight into its library.
    static func template(for finger: String) -> [UInt8] {
        let file = CharFile.encode(VirtualFinger(name: finger).minutiae, quality: 100, size: profile.charFileSize)
        return CharFile.template(from: [file, file], templateSize: profile.templateSize)
    }

    static func enroll(_ simulator: ModuleSimulatorServer, finger: String, slot: Int) {
        let template = Self.template(for: finger)
        simulator.withModule { module in module.configure { $0.library[slot] = template } }
    }

    /// Into the module only: the store knows nothing of it (a tampered library).
    func enrollInSimulator(finger: String, slot: Int) { Self.enroll(simulator, finger: finger, slot: slot) }

    // MARK: The outside world

    /// A finger on the sensor: the simulator sees it, then the touch line goes active.
    func press(_ finger: String) {
        simulator.place(finger)
        chip.drive(offset: Self.touch, level: false)
    }

    func liftFinger() {
        simulator.lift()
        chip.drive(offset: Self.touch, level: true)
    }

    /// Press, wait for the outcome event named in `outcomes`, lift.
    @discardableResult
    func scan(_ finger: String, expecting outcomes: Set<String>) throws -> LockEvent {
        let before = events.count
        press(finger)
        let event = try waitForEvent(after: before) { outcomes.contains($0.name) }
        liftFinger()
        return event
    }

    func setInput(_ offset: Int, active: Bool) { chip.drive(offset: offset, level: active) }

    var events: [LockEvent] { received.items.withLock { $0 } }
    func events(named name: String) -> [LockEvent] { events.filter { $0.name == name } }

    var relayChanges: [Bool] {
        chip.outputHistory.filter { $0.offset == Self.relay }.map(\.active)
    }

    @discardableResult
    func waitForEvent(after index: Int = 0, timeout: Duration = .seconds(10),
                      _ matches: @escaping (LockEvent) -> Bool) throws -> LockEvent {
        var found: LockEvent?
        do {
            try waitUntil("an expected event", timeout: timeout) {
                found = self.events.dropFirst(index).first(where: matches)
                return found != nil
            }
        } catch {
            throw HarnessError("timed out waiting for an expected event; seen: \(events.dropFirst(index).map(\.name))")
        }
        return found!
    }

    @discardableResult
    func waitForEvent(named name: String, after index: Int = 0, timeout: Duration = .seconds(10)) throws -> LockEvent {
        try waitForEvent(after: index, timeout: timeout) { $0.name == name }
    }

    /// One control-socket command and its final JSON reply (the line with `ok`; progress lines skipped).
    func control(_ line: String) throws -> [String: Any] {
        let connection = try UnixConnection.connect(path: options.controlSocket)
        defer { connection.close() }
        try connection.send(line: line)
        while true {
            guard let reply = try connection.readLine(deadline: .now + .seconds(10)) else { throw HarnessError("no reply to '\(line)'") }
            guard let object = try JSONSerialization.jsonObject(with: Data(reply.utf8)) as? [String: Any] else {
                throw HarnessError("reply to '\(line)' is not a JSON object: \(reply)")
            }
            if object["ok"] != nil { return object }
        }
    }
}

final class EventLog: Sendable {
    let items = Mutex<[LockEvent]>([])
}

final class LineLog: Sendable {
    let items = Mutex<[String]>([])
    var all: [String] { items.withLock { $0 } }
    func contains(_ text: String) -> Bool { items.withLock { $0.contains { $0.contains(text) } } }
}

struct HarnessError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Polls `condition` until it holds or `timeout` passes (never a timing assertion: only a bound).
func waitUntil(_ what: String, timeout: Duration = .seconds(10), _ condition: () throws -> Bool) throws {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try condition() { return }
        Thread.sleep(forTimeInterval: 0.01)
    }
    if try condition() { return }
    throw HarnessError("timed out waiting for \(what)")
}

/// `UnixConnection` wrapper so test files need not import Posix themselves.
final class UnixConnectionBox {
    let connection: UnixConnection
    init(path: String) throws { connection = try UnixConnection.connect(path: path) }
    func readLine(deadline: ContinuousClock.Instant) throws -> String? { try connection.readLine(deadline: deadline) }
    deinit { connection.close() }
}
