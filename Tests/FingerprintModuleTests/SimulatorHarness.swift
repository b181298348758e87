import Foundation
import FingerprintModule
import FingerprintProtocol
import ModuleSimulator
import SerialPort

/// A `ModuleSimulatorServer` on a real pseudo-terminal and the driver on a real termios port
/// opened on its slave side.
final class SimulatorHarness {
    let server: ModuleSimulatorServer
    let port: SerialPort
    let module: FingerprintModule

    init(profile: SimulatorProfile, modulePassword: UInt32? = nil, driverPassword: UInt32 = 0,
         family: ModuleFamily? = nil, connect: Bool = true) throws {
        server = try ModuleSimulatorServer(.init(profile: profile, timing: .instant, password: modulePassword))
        // Open before start, so the boot byte is there for the driver to see.
        port = try SerialPort.open(path: server.devicePath, baudRate: 57_600, exclusive: false)
        server.start()
        module = FingerprintModule(transport: port, password: driverPassword, family: family)
        module.timeouts = SimulatorHarness.timeouts()
        if connect { try module.connect() }
    }

    static func timeouts() -> CommandTimeouts {
        var timeouts = CommandTimeouts()
        timeouts.ordinary = .milliseconds(500)
        timeouts.flashWrite = .seconds(1)
        timeouts.searchBase = .milliseconds(500)
        timeouts.dataPacket = .milliseconds(500)
        timeouts.probe = .milliseconds(300)
        timeouts.bootWait = .milliseconds(300)
        return timeouts
    }

    deinit {
        port.close()
        server.stop()
    }

    /// Polls GenImg until the sensor reports `wanted` (the simulator's `touch` waits for the
    /// host to see the lift before the next press).
    func waitForCapture(_ wanted: CaptureResult, attempts: Int = 200) throws {
        for _ in 0..<attempts where try module.captureImage() == wanted { return }
        throw SimulatorTestError("the sensor never reported \(wanted)")
    }

    /// Enrolls `finger` into `slot` the classic way: two captures, RegModel, Store.
    func enroll(_ finger: String, slot: Int) throws {
        server.touch(finger, times: 2)
        try waitForCapture(.captured)
        guard try module.extractFeatures(buffer: 1) == .ok else { throw SimulatorTestError("first extract failed") }
        try waitForCapture(.noFinger)
        try waitForCapture(.captured)
        guard try module.extractFeatures(buffer: 2) == .ok else { throw SimulatorTestError("second extract failed") }
        guard try module.registerModel() == .merged else { throw SimulatorTestError("RegModel did not merge") }
        try module.store(buffer: 1, slot: slot)
    }
}

struct SimulatorTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
