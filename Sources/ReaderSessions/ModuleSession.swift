import Administration
import FingerprintModule
import FingerprintProtocol
import Foundation
import ModuleSimulator
import SerialPort
import TemplateStore

/// An open module for one command: a real serial port, or with a simulator a simulated module
/// served in this process on a real pseudo-terminal (so the driver runs exactly as against hardware).
public final class ModuleSession {
    public let module: FingerprintModule
    /// Kept alive for the session's length with a simulator.
    public let simulator: ModuleSimulatorServer?

    private init(module: FingerprintModule, simulator: ModuleSimulatorServer?) {
        self.module = module
        self.simulator = simulator
    }

    /// Opens the module the options name. Address and password come from the options when
    /// given, else from `identity` (the store's pairing), else the factory values.
    public static func open(_ options: ReaderOptions, identity: ModuleIdentity? = nil,
                            virtualFinger: String? = nil) throws -> ModuleSession {
        let address = options.address ?? identity?.address ?? Frame.defaultAddress
        let password = options.password ?? identity?.password ?? 0
        let endpoint = try Endpoint(options, virtualFinger: virtualFinger)
        do {
            let module = try endpoint.connect(options, address: address, password: password,
                                              family: options.family ?? identity.flatMap { ModuleFamily(rawValue: $0.family) })
            return ModuleSession(module: module, simulator: endpoint.simulator)
        } catch {
            endpoint.simulator?.stop()
            throw error
        }
    }

    /// Opens the module for an administration command: with the store's pairing (re-checking
    /// what answers: reset, swapped, an interrupted pairing), then reconciles interrupted
    /// operations with an audit row each. Repairs and findings are reported through `progress`.
    /// The failpoint (a test hook) kills the process at that point of a crash-sensitive
    /// sequence — after stopping the in-process simulator, so its flash holds what it acked.
    public static func openAdministrator(_ options: ReaderOptions, store: TemplateStore, virtualFinger: String? = nil,
                                         allowUntrusted: Bool = false) throws -> (ModuleSession, Administrator) {
        let endpoint = try Endpoint(options, virtualFinger: virtualFinger)
        let before = try store.auditEntries(limit: 1).last?.id ?? 0
        var opened: FingerprintModule?
        do {
            let administrator = try AdministrationOpener.open(
                store: store, unpaired: (options.address ?? Frame.defaultAddress, options.password ?? 0),
                allowUntrusted: allowUntrusted
            ) { address, password, probe in
                if let module = opened { module.transport.close() }
                let module = try endpoint.connect(options, address: options.address ?? address,
                                                  password: options.password ?? password, family: options.family,
                                                  probeBaudRates: probe)
                opened = module
                return module
            }
            let session = ModuleSession(module: administrator.module, simulator: endpoint.simulator)
            ReaderSession.configure(administrator, options, beforeKill: { endpoint.simulator?.stop() })
            // What the open found out. `sync` is the fix these findings advise: said as such
            // instead of telling the user to run the command that is running.
            let syncing = options.command == ["sync"]
            for entry in try store.auditEntries(limit: 1000) where entry.id > before {
                var detail = entry.detail ?? ""
                if syncing, let advice = detail.range(of: ". Run `fpmod sync` to make the module equal to the store") {
                    detail.replaceSubrange(advice, with: "; fpmod sync fixes that now")
                }
                options.progress("\(entry.event): \(detail)")
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
    /// raw, capture, bench on a port). With a paired store it goes through the one opener's
    /// identity check, so a reset or swapped module is refused with the finding every other
    /// command gives, not read as if it were the paired one; without a store or a pairing the
    /// module is opened as the options say.
    public static func openVerified(_ options: ReaderOptions) throws -> ModuleSession {
        guard let database = options.storeDatabase, let key = options.storeKey,
              FileManager.default.fileExists(atPath: database) else { return try open(options) }
        let store = try TemplateStore(readingOnly: database, keyPath: key)
        guard try store.moduleIdentity() != nil else { return try open(options) }
        let (session, finding) = try openChecked(options, store: store)
        guard finding.isTrusted else {
            session.close()
            throw AdministrationError.untrustedModule(finding)
        }
        return session
    }

    /// Opens the module through the one opener's identity check, without reconciling (for
    /// doctor, which changes nothing): the finding says whether it is the paired module.
    public static func openChecked(_ options: ReaderOptions, store: TemplateStore) throws -> (ModuleSession, IdentityFinding) {
        let endpoint = try Endpoint(options, virtualFinger: nil)
        var opened: FingerprintModule?
        do {
            let (module, finding) = try AdministrationOpener.connectChecked(
                store: store, unpaired: (options.address ?? Frame.defaultAddress, options.password ?? 0)
            ) { address, password, probe in
                if let module = opened { module.transport.close() }
                let module = try endpoint.connect(options, address: address, password: password, family: options.family,
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

    public func close() {
        module.transport.close()
        simulator?.stop()
    }

    /// Where the module is: a port path, and with a simulator the simulator serving it.
    private struct Endpoint {
        let port: String
        let simulator: ModuleSimulatorServer?

        init(_ options: ReaderOptions, virtualFinger: String?) throws {
            // Every module-only command comes through here: on an image sensor it is refused, naming why.
            let choice = try ReaderChoice(options, moduleCommand: true)
            if choice.isImageSensor { throw choice.moduleOnlyRefusal(command: options.command) }
            guard let simulation = options.simulator else {
                guard let configured = options.port else { throw ReaderSessionError.noPort }
                port = configured
                simulator = nil
                return
            }
            guard let profile = SimulatorProfile.named(simulation.profile) else {
                throw ReaderSessionError.unknownSimulatorProfile(simulation.profile)
            }
            try FileManager.default.createDirectory(atPath: (simulation.statePath as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let server = try ModuleSimulatorServer(.init(profile: profile, statePath: simulation.statePath,
                                                         searchModel: simulation.searchModel))
            server.start()
            if let finger = virtualFinger ?? simulation.finger {
                // Placed for each capture and lifted after it, as a person touching the sensor.
                server.touch(finger, times: 1000)
            }
            simulator = server
            port = server.devicePath
        }

        func connect(_ options: ReaderOptions, address: UInt32, password: UInt32, family: ModuleFamily?,
                     probeBaudRates: Bool = true) throws -> FingerprintModule {
            let baud = options.baudRate
            let module: FingerprintModule
            if probeBaudRates {
                // A silent port costs a couple of seconds per rate: say so while it happens.
                let requested = baud ?? BaudRate.factoryDefault
                let port = port
                module = try FingerprintModule.open(port: port, baudRate: baud, address: address,
                                                    password: password, family: family) { rate, number, count in
                    guard number > 1 else { return }
                    if number == 2 {
                        options.progress("No answer on \(port) at \(requested) baud; trying the other \(count - 1) rates…")
                    }
                    options.progress("  trying \(rate) baud (\(number) of \(count))")
                }
                if let found = module.answeredBaudRate, found != requested {
                    options.progress("Found the module at \(found) baud, not \(requested): pass --baud \(found) to skip probing.")
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
            if options.trace {
                let progress = options.progress
                module.exchangeObserver = { record in
                    progress("  \(record.instruction) → \(record.code.map { "\($0)" } ?? "no reply") "
                        + "(\(record.bytesSent)+\(record.bytesReceived) B, \((record.doneAt - record.sentAt) / 1000) µs)")
                }
            }
            return module
        }
    }
}
