import Administration
import ArgumentParsing
import FingerprintModule
import FingerprintProtocol
import Foundation
import Glibc
import ModuleSimulator
import Posix
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
        let endpoint = try Endpoint(invocation, virtualFinger: virtualFinger)
        do {
            let module = try endpoint.connect(invocation, address: address, password: password,
                                              family: try parsed.choice("family", as: ModuleFamily.self)
                                                  ?? identity.flatMap { ModuleFamily(rawValue: $0.family) })
            return ModuleSession(module: module, simulator: endpoint.simulator)
        } catch {
            endpoint.simulator?.stop()
            throw error
        }
    }

    /// Opens the module for an administration command: with the store's pairing (re-checking
    /// what answers: reset, swapped, an interrupted pairing), then reconciles interrupted
    /// operations with an audit row each. Repairs and findings are reported on stderr.
    /// FPMOD_FAILPOINT=<name> (a test hook) kills the process at that point of a crash-sensitive
    /// sequence — after stopping the in-process simulator, so its flash holds what it acked.
    static func openAdministrator(_ invocation: Invocation, store: TemplateStore, virtualFinger: String? = nil,
                                  allowUntrusted: Bool = false) throws -> (ModuleSession, Administrator) {
        let parsed = invocation.parsed
        let endpoint = try Endpoint(invocation, virtualFinger: virtualFinger)
        let family = try parsed.choice("family", as: ModuleFamily.self)
        let explicitAddress = try parsed.hexUInt32("address")
        let explicitPassword = try parsed.hexUInt32("password")
        let before = try store.auditEntries(limit: 1).last?.id ?? 0
        var opened: FingerprintModule?
        do {
            let administrator = try AdministrationOpener.open(
                store: store, unpaired: (explicitAddress ?? Frame.defaultAddress, explicitPassword ?? 0),
                allowUntrusted: allowUntrusted
            ) { address, password, probe in
                if let module = opened { module.transport.close() }
                let module = try endpoint.connect(invocation, address: explicitAddress ?? address,
                                                  password: explicitPassword ?? password, family: family,
                                                  probeBaudRates: probe)
                opened = module
                return module
            }
            let session = ModuleSession(module: administrator.module, simulator: endpoint.simulator)
            try ReaderSession.configure(administrator, invocation, beforeKill: { endpoint.simulator?.stop() })
            // What the open found out. `sync` is the fix these findings advise: said as such
            // instead of telling the user to run the command that is running.
            let syncing = parsed.path == ["sync"]
            for entry in try store.auditEntries(limit: 1000) where entry.id > before {
                var detail = entry.detail ?? ""
                if syncing, let advice = detail.range(of: ". Run `fpmod sync` to make the module equal to the store") {
                    detail.replaceSubrange(advice, with: "; fpmod sync fixes that now")
                }
                invocation.progress("\(entry.event): \(detail)")
            }
            // So `fpmod list`, which needs no module, can mark fingers this module cannot use.
            try administrator.recordModuleTemplateFormat()
            return (session, administrator)
        } catch {
            if let module = opened { module.transport.close() }
            endpoint.simulator?.stop()
            throw error
        }
    }

    /// Opens the module for a command that reads or probes it without changing the store (info,
    /// raw, capture, bench on --port). With a paired store it goes through the one opener's
    /// identity check, so a reset or swapped module is refused with the finding every other
    /// command gives (exit 77), not read as if it were the paired one; without a store or a
    /// pairing the module is opened as the command line says.
    static func openVerified(_ invocation: Invocation) throws -> ModuleSession {
        guard FileManager.default.fileExists(atPath: invocation.storePaths.database) else { return try open(invocation) }
        let store = try invocation.openStoreForReading()
        guard try store.moduleIdentity() != nil else { return try open(invocation) }
        let (session, finding) = try openChecked(invocation, store: store)
        guard finding.isTrusted else {
            session.close()
            throw AdministrationError.untrustedModule(finding)
        }
        return session
    }

    /// Opens the module through the one opener's identity check, without reconciling (for
    /// `doctor`, which changes nothing): the finding says whether it is the paired module.
    static func openChecked(_ invocation: Invocation, store: TemplateStore) throws -> (ModuleSession, IdentityFinding) {
        let parsed = invocation.parsed
        let endpoint = try Endpoint(invocation, virtualFinger: nil)
        let family = try parsed.choice("family", as: ModuleFamily.self)
        let explicitAddress = try parsed.hexUInt32("address")
        let explicitPassword = try parsed.hexUInt32("password")
        var opened: FingerprintModule?
        do {
            let (module, finding) = try AdministrationOpener.connectChecked(
                store: store, unpaired: (explicitAddress ?? Frame.defaultAddress, explicitPassword ?? 0)
            ) { address, password, probe in
                if let module = opened { module.transport.close() }
                let module = try endpoint.connect(invocation, address: address, password: password, family: family,
                                                  probeBaudRates: probe)
                opened = module
                return module
            }
            return (ModuleSession(module: module, simulator: endpoint.simulator), finding)
        } catch {
            if let module = opened { module.transport.close() }
            endpoint.simulator?.stop()
            throw error
        }
    }

    func close() {
        module.transport.close()
        simulator?.stop()
    }

    /// Where the module is: a port path, and with --sim the simulator serving it.
    private struct Endpoint {
        let port: String
        let simulator: ModuleSimulatorServer?

        init(_ invocation: Invocation, virtualFinger: String?) throws {
            let parsed = invocation.parsed
            // Every module-only command comes through here: on an image sensor it is refused, naming why.
            let choice = try invocation.readerChoice(moduleCommand: true)
            if choice.isImageSensor { throw choice.moduleOnlyRefusal(command: parsed.path) }
            guard parsed.flag("sim") else {
                guard let configured = parsed.string("port") else {
                    throw CommandFailure(.config, """
                        No module port given. Use --port PATH (or FPMOD_PORT), e.g. --port /dev/serial0 on a Raspberry Pi \
                        or --port /dev/ttyUSB0 for a USB adapter; or try without hardware: --sim.
                        """)
                }
                port = configured
                simulator = nil
                return
            }
            let profileName = parsed.string("sim-profile") ?? "r307"
            guard let profile = SimulatorProfile.named(profileName) else {
                throw UsageError(.invalidValue(subject: "--sim-profile", value: profileName, expected: "r307, as608, r503 or fpc1020"),
                                 programName: parsed.programName, commandPath: parsed.path)
            }
            try FileManager.default.createDirectory(atPath: (invocation.simulatorStatePath as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let server = try ModuleSimulatorServer(.init(profile: profile, statePath: invocation.simulatorStatePath,
                                                         searchModel: invocation.simulatorSearchModel))
            server.start()
            if let finger = virtualFinger ?? parsed.string("sim-finger") {
                // Placed for each capture and lifted after it, as a person touching the sensor.
                server.touch(finger, times: 1000)
            }
            simulator = server
            port = server.devicePath
        }

        func connect(_ invocation: Invocation, address: UInt32, password: UInt32, family: ModuleFamily?,
                     probeBaudRates: Bool = true) throws -> FingerprintModule {
            let baud = try invocation.parsed.int("baud", range: 9600...115_200)
            let module: FingerprintModule
            if probeBaudRates {
                // A silent port costs a couple of seconds per rate: say so while it happens.
                let requested = baud ?? BaudRate.factoryDefault
                module = try FingerprintModule.open(port: port, baudRate: baud, address: address,
                                                    password: password, family: family) { rate, number, count in
                    guard number > 1 else { return }
                    if number == 2 {
                        StandardStreams.writeError("No answer on \(port) at \(requested) baud; trying the other \(count - 1) rates…\n")
                    }
                    StandardStreams.writeError("  trying \(rate) baud (\(number) of \(count))\n")
                }
                if let found = module.answeredBaudRate, found != requested {
                    StandardStreams.writeError("Found the module at \(found) baud, not \(requested): pass --baud \(found) to skip probing.\n")
                }
            } else {
                // One rate only: trying several credentials must not cost a baud probe each.
                let serial = try SerialPort.open(path: port, baudRate: baud ?? 57600)
                module = FingerprintModule(transport: serial, address: address, password: password, family: family)
                do { try module.connect() } catch {
                    serial.close()
                    throw error
                }
            }
            if invocation.verbosity > 0 {
                module.exchangeObserver = { record in
                    StandardStreams.writeError("  \(record.instruction) → \(record.code.map { "\($0)" } ?? "no reply") "
                        + "(\(record.bytesSent)+\(record.bytesReceived) B, \((record.doneAt - record.sentAt) / 1000) µs)\n")
                }
            }
            return module
        }
    }
}
