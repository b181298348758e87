import ArgumentParsing
import FingerprintModule
import FingerprintProtocol
import Foundation
import ModuleSimulator
import SerialPort
import TemplateStore

/// An open module for one command: a real serial port, or with --sim a simulated module served
/// in this process on a real pseudo-terminal (so the driver runs exactly as against hardware).
final class ModuleSession {
    let module: FingerprintModule
    /// Kept alive for the session's length with --sim.
    let simulator: ModuleSimulatorServer?

    private init(module: FingerprintModule, simulator: ModuleSimulatorServer?) {
        self.module = module
        self.simulator = simulator
    }

    /// Opens the module the command line names. Address and password come from --address and
    /// --password when given, else from the store's pairing, else the factory values.
    static func open(_ invocation: Invocation, identity: ModuleIdentity? = nil, virtualFinger: String? = nil) throws -> ModuleSession {
        let parsed = invocation.parsed
        let address = try parsed.hexUInt32("address") ?? identity?.address ?? Frame.defaultAddress
        let password = try parsed.hexUInt32("password") ?? identity?.password ?? 0
        let family = try parsed.choice("family", as: ModuleFamily.self)
            ?? identity.flatMap { ModuleFamily(rawValue: $0.family) }
        let baud = try parsed.int("baud", range: 9600...115_200)

        var simulator: ModuleSimulatorServer?
        let port: String
        if parsed.flag("sim") {
            let profileName = parsed.string("sim-profile") ?? "r307"
            guard let profile = SimulatorProfile.named(profileName) else {
                throw UsageError(.invalidValue(subject: "--sim-profile", value: profileName, expected: "r307, as608 or r503"),
                                 programName: parsed.programName, commandPath: parsed.path)
            }
            try FileManager.default.createDirectory(atPath: (invocation.simulatorStatePath as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let server = try ModuleSimulatorServer(.init(profile: profile, statePath: invocation.simulatorStatePath))
            server.start()
            if let finger = virtualFinger ?? parsed.string("sim-finger") {
                // Placed for each capture and lifted after it, as a person touching the sensor.
                server.touch(finger, times: 1000)
            }
            simulator = server
            port = server.devicePath
        } else {
            guard let configured = parsed.string("port") else {
                throw CommandFailure(.config, """
                    No module port given. Use --port PATH (or FPMOD_PORT), e.g. --port /dev/serial0 on a Raspberry Pi \
                    or --port /dev/ttyUSB0 for a USB adapter; or try without hardware: --sim.
                    """)
            }
            port = configured
        }
        do {
            let module = try FingerprintModule.open(port: port, baudRate: baud, address: address,
                                                    password: password, family: family)
            if invocation.verbosity > 0 {
                module.exchangeObserver = { record in
                    StandardStreams.writeError("  \(record.instruction) → \(record.code.map { "\($0)" } ?? "no reply") "
                        + "(\(record.bytesSent)+\(record.bytesReceived) B, \((record.doneAt - record.sentAt) / 1000) µs)\n")
                }
            }
            return ModuleSession(module: module, simulator: simulator)
        } catch {
            simulator?.stop()
            throw error
        }
    }

    func close() {
        (module.transport as? SerialPort)?.close()
        simulator?.stop()
    }
}
