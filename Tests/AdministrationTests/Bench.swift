import Administration
import FingerprintModule
import FingerprintProtocol
import Foundation
import ModuleSimulator
import SerialPort
import TemplateStore

struct Crash: Error, Equatable { let at: String }

/// A real store in a temporary directory and a `ModuleSimulatorServer` on a real pseudo-terminal;
/// `open()` connects the way the CLI does (pairing checks, reconcile at open).
final class Bench {
    let directory: String
    let store: TemplateStore
    private(set) var server: ModuleSimulatorServer
    private var ports: [SerialPort] = []

    init(profile: SimulatorProfile = .r307, directory: String? = nil, configuration: ModuleSimulatorServer.Configuration? = nil) throws {
        self.directory = directory ?? {
            let path = NSTemporaryDirectory() + "fpmod-admin-\(UUID().uuidString)"
            try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            return path
        }()
        store = try TemplateStore(databasePath: self.directory + "/store.db", keyPath: self.directory + "/key")
        server = try ModuleSimulatorServer(configuration ?? .init(profile: profile))
        server.start()
    }

    deinit {
        for port in ports { port.close() }
        server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Replaces the module on the "port" by another one (a swap, or a fresh module).
    func swapModule(_ configuration: ModuleSimulatorServer.Configuration) throws {
        for port in ports { port.close() }
        ports.removeAll()
        server.stop()
        server = try ModuleSimulatorServer(configuration)
        server.start()
    }

    static func timeouts() -> CommandTimeouts {
        var timeouts = CommandTimeouts()
        timeouts.ordinary = .milliseconds(500)
        timeouts.flashWrite = .seconds(1)
        timeouts.searchBase = .milliseconds(500)
        timeouts.dataPacket = .milliseconds(500)
        timeouts.probe = .milliseconds(200)
        timeouts.bootWait = .milliseconds(200)
        return timeouts
    }

    func connect(address: UInt32, password: UInt32, probe: Bool) throws -> FingerprintModule {
        let port = try SerialPort.open(path: server.devicePath, baudRate: 57_600, exclusive: false)
        ports.append(port)
        let module = FingerprintModule(transport: port, address: address, password: password)
        module.timeouts = Self.timeouts()
        try module.connect()
        return module
    }

    func open(allowUntrusted: Bool = false) throws -> Administrator {
        let administrator = try AdministrationOpener.open(store: store, unpaired: (Frame.defaultAddress, 0),
                                                          allowUntrusted: allowUntrusted) { address, password, probe in
            try self.connect(address: address, password: password, probe: probe)
        }
        administrator.fingerTimeout = .seconds(5)
        return administrator
    }

    /// Enrolls `user`'s `label` with the virtual finger "<user>-<label>" touching the sensor.
    @discardableResult
    func enroll(_ administrator: Administrator, _ user: String, label: String = "right-index", captures: Int = 2,
                finger: String? = nil, admin: Bool = false) throws -> EnrollResult {
        server.touch(finger ?? "\(user)-\(label)", times: 100)
        defer { server.lift() }
        return try administrator.enroll(user: try UserName(validating: user), label: try FingerLabel(validating: label), captures: captures, admin: admin)
    }

    func identify(_ administrator: Administrator, finger: String) throws -> MatchOutcome {
        server.touch(finger, times: 1)
        defer { server.lift() }
        return try administrator.identify()
    }

    func verify(_ administrator: Administrator, user: String, finger: String) throws -> MatchOutcome {
        server.touch(finger, times: 1)
        defer { server.lift() }
        return try administrator.verify(user: user)
    }

    /// Writes a template for `finger` straight into `slot`, behind the store's back.
    func plantTemplate(finger: String, slot: Int, using module: FingerprintModule) throws {
        server.touch(finger, times: 2)
        defer { server.lift() }
        while try module.captureImage() != .captured {}
        _ = try module.extractFeatures(buffer: 1)
        while try module.captureImage() != .noFinger {}
        while try module.captureImage() != .captured {}
        _ = try module.extractFeatures(buffer: 2)
        _ = try module.registerModel()
        try module.store(buffer: 1, slot: slot)
    }

    var auditEvents: [String] { (try? store.auditEntries(limit: 1000).map(\.event)) ?? [] }
}

extension MatchOutcome {
    var matchedUser: String? {
        if case .match(let found) = self { return found.user }
        return nil
    }
}
