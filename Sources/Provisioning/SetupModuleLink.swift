import Administration
import FingerprintModule
import FingerprintProtocol
import Foundation
import ModuleSimulator
import SerialPort
import TemplateStore

/// The port the setup guide settled on (a real one, or a simulator served in this process on a
/// pseudo-terminal) and how to open an administrator on it with the store's pairing.
final class SetupModuleLink {
    let port: String
    let baudRate: Int?
    /// A simulated module, its flash kept where later simulated commands find the same (paired,
    /// enrolled) module.
    let simulator: ModuleSimulatorServer?
    /// The family the probe saw ("r30x"), for the config file; nil when not probed.
    var family: String?

    init(port: String, baudRate: Int?, simulator: ModuleSimulatorServer?, family: String? = nil) {
        self.port = port
        self.baudRate = baudRate
        self.simulator = simulator
        self.family = family
    }

    /// The simulated module `simulator` names, started.
    static func simulated(_ simulator: SetupSettings.Simulator) throws -> SetupModuleLink {
        if simulator.profile == "fpc1020" {
            // The guide finds a port, pairs a module and enrolls on it: none of that applies.
            throw SetupError(.usage, """
                `fpmod setup` sets up a UART module (port, pairing); the simulated FPC1020 image sensor has neither. \
                Enroll the first admin directly: fpmod --sim --sim-profile fpc1020 enroll NAME --admin, then fpmod pin NAME.
                """)
        }
        guard let profile = SimulatorProfile.named(simulator.profile) else {
            throw SetupError(.usage, "Unknown --sim-profile '\(simulator.profile)'; use r307, as608 or r503.")
        }
        try FileManager.default.createDirectory(atPath: (simulator.statePath as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let server = try ModuleSimulatorServer(.init(profile: profile, statePath: simulator.statePath))
        server.start()
        return SetupModuleLink(port: server.devicePath, baudRate: nil, simulator: server)
    }

    /// Opens the module for administration: the store's pairing when there is one (re-checking
    /// what answers), else `unpaired`; interrupted operations are reconciled on the way.
    func openAdministrator(store: TemplateStore, unpaired: (address: UInt32, password: UInt32)) throws -> Administrator {
        var opened: FingerprintModule?
        do {
            return try AdministrationOpener.open(store: store, unpaired: unpaired) { [port, baudRate] address, password, probe in
                if let module = opened { module.transport.close() }
                let module: FingerprintModule
                if probe {
                    module = try FingerprintModule.open(port: port, baudRate: baudRate, address: address, password: password)
                } else {
                    // One rate only: trying several credentials must not cost a baud probe each.
                    let serial = try SerialPort.open(path: port, baudRate: baudRate ?? 57_600)
                    module = FingerprintModule(transport: serial, address: address, password: password)
                    do { try module.connect() } catch {
                        serial.close()
                        throw error
                    }
                }
                opened = module
                return module
            }
        } catch {
            if let module = opened { module.transport.close() }
            throw error
        }
    }

    func close(_ administrator: Administrator) {
        administrator.module.transport.close()
    }

    func stop() {
        simulator?.stop()
    }
}
