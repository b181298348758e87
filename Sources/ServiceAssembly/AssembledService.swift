import DoorFleet
import DoorLock
import FleetSync
import FingerprintProtocol
import Foundation
import Glibc
import GPIO
import HostReader
import ModuleSimulator
import Posix
import PrintableText
import ReaderSessions
import Synchronization
import TemplateStore

/// The door/kiosk lock service built from `ServiceSettings` as `fpmod run` runs it: config,
/// board and GPIO chip, store, the reader's connection (a module on a port, an FPC1020 on SPI
/// or on another process's socket, or a simulator in this process with its control socket),
/// the service's options, and config reloads. Every host runs the service through this (the
/// CLI in the foreground with `run()`, a console or a test on its own thread with `start()`),
/// so all of them run the same service.
public final class AssembledService: Sendable {
    public let service: LockService
    /// The config the service started with (the console, when enabled, serves its door).
    public let config: LockConfig
    /// The config file in use; nil when running on a simulator's defaults.
    public let configPath: String?
    /// The board preset's name.
    public let board: String
    /// Where the reader is: a port, an spidev node, a socket, or the simulated sensor's name.
    public let readerLocation: String
    /// An image sensor matched on the host, rather than a module that matches by itself.
    public let isImageSensor: Bool
    public let storeDatabase: String
    public let storeKey: String
    public let controlSocket: String
    public let eventsSocket: String

    private let simulator: ModuleSimulatorServer?
    private let simulatedSensor: ImageSensorConnections.Simulation?
    private let journalPrivacy: JournalPrivacy
    private let stopped = Mutex(false)
    /// The hub this door follows, when it joined a fleet (fleet.json beside the store).
    public let fleetFollower: FleetFollower?

    /// The signals `run()` answers: SIGTERM and SIGINT stop, SIGHUP reloads the config, SIGCHLD
    /// reaps the hooks. Blocked on the calling thread, so call this first, before any thread exists
    /// (before `assemble`, which starts simulators): see `SignalWatcher`.
    public static func watchSignals() throws -> SignalWatcher {
        try SignalWatcher(signals: [SIGINT, SIGTERM, SIGHUP, SIGCHLD])
    }

    /// Builds the service the settings describe, ready to `run()` or `start()`; a simulator it
    /// names is already serving (stopped again if building fails). `signals` (from
    /// `watchSignals()`) are for `run()`; nil for a host that stops the service itself.
    public static func assemble(_ settings: ServiceSettings, signals: SignalWatcher? = nil) throws -> AssembledService {
        let (config, preset) = try configuration(settings)
        let chip: any GPIOChip
        var simulatedChip: MemoryChip?
        if settings.simulatedGPIO {
            let memory = MemoryChip(preset: preset)
            simulatedChip = memory
            chip = memory
        } else if let name = settings.chipName ?? config.chipName(preset: preset) {
            chip = try LibgpiodChip(name)
        } else {
            chip = MemoryChip(lineCount: 0)  // a board without GPIO: no lines, GenImg polling
        }
        let problems = config.problems(preset: preset, chip: chip)
        guard problems.isEmpty else {
            throw ServiceAssemblyError.config(LockConfigError(source: settings.configPath ?? "configuration", problems: problems).description)
        }

        let (storeDatabase, storeKey) = StorePaths.choose(
            named: (settings.storeDatabase, settings.storeKey), configured: (config.storeDatabase, config.storeKey),
            defaults: settings.simulator != nil ? StorePaths.personal() : StorePaths.defaults())
        let store = try TemplateStore(databasePath: storeDatabase, keyPath: storeKey)
        let identity = try store.moduleIdentity()
        let endpoint = try ReaderEndpoint(settings, config: config, preset: preset, chip: chip, identity: identity)
        do {
            if let simulatedChip {
                // The service's polarity (family from the store as well), so "no finger" reads as such.
                let lines = config.resolvedLines(preset: preset, family: config.family ?? identity.flatMap { ModuleFamily(rawValue: $0.family) })
                // Before the service reads them: no finger, door closed, tamper switch quiet.
                SimulatedInputs(chip: simulatedChip, lines: lines).rest()
                if let simulator = endpoint.simulator {
                    SimulatedInputs.connect(simulator, chip: simulatedChip, lines: lines)
                } else if let simulatedSensor = endpoint.simulatedSensor {
                    SimulatedInputs.connect(simulatedSensor.sensor, control: simulatedSensor.control, chip: simulatedChip, lines: lines)
                }
            }

            var options = LockService.Options(config: config, environment: settings.environment)
            options.modulePort = endpoint.location
            options.softwareVersion = settings.softwareVersion
            options.storePath = storeDatabase
            // A door that joined a fleet follows its hub, and its decisions know how long the hub was silent.
            let fleetFiles = FleetFiles(storeDatabase: storeDatabase)
            // An image sensor's door takes the fleet's host templates and sends the fingers enrolled here.
            let doorReader: DoorReader = endpoint.simulatedSensor != nil || endpoint.reader.detectsFingerItself
                ? .imageSensor(capacity: HostReader.defaultCapacity) : .module
            let fleetFollower = FileSystem.exists(fleetFiles.membershipPath)
                ? FleetFollower(files: fleetFiles, reader: doorReader, openStore: { try TemplateStore(databasePath: storeDatabase, keyPath: storeKey) })
                : nil
            if let fleetFollower {
                options.hubLastContact = { fleetFollower.lastContact }
                options.hubEnrolledSet = { fleetFollower.enrolledSetFromHub }
                options.hubDoorMode = { fleetFollower.doorModeFromHub }
            }
            let journalPrivacy = JournalPrivacy(config.privacy.log)
            let service = try LockService(
                config: config, preset: preset, chip: chip, reader: endpoint.reader, store: store, options: options,
                signals: signals, configLoader: loader(settings.configPath, initial: config, journalPrivacy: journalPrivacy))
            return AssembledService(
                service: service, config: config, configPath: settings.configPath, board: preset.name, endpoint: endpoint,
                storeDatabase: storeDatabase, storeKey: storeKey, options: options, journalPrivacy: journalPrivacy,
                fleetFollower: fleetFollower)
        } catch {
            endpoint.stop()
            throw error
        }
    }

    private init(service: LockService, config: LockConfig, configPath: String?, board: String, endpoint: ReaderEndpoint,
                 storeDatabase: String, storeKey: String, options: LockService.Options, journalPrivacy: JournalPrivacy,
                 fleetFollower: FleetFollower?) {
        self.service = service
        self.config = config
        self.configPath = configPath
        self.board = board
        readerLocation = endpoint.location
        isImageSensor = endpoint.simulatedSensor != nil || endpoint.reader.detectsFingerItself
        self.storeDatabase = storeDatabase
        self.storeKey = storeKey
        controlSocket = options.controlSocket
        eventsSocket = options.eventsSocket
        simulator = endpoint.simulator
        simulatedSensor = endpoint.simulatedSensor
        self.journalPrivacy = journalPrivacy
        self.fleetFollower = fleetFollower
        if let fleetFollower {
            fleetFollower.setLog { [service] line in service.log(Printable.escaped(line)) }
        }
    }

    /// Calls `handler` on the service thread with every public event as the journal may show it:
    /// names as the config's `privacy.log` says, kept current across reloads.
    public func observeJournal(_ handler: @escaping @Sendable (LockEvent) -> Void) {
        let journalPrivacy = journalPrivacy
        service.onEvent = { raw in
            guard raw.isPublic else { return }
            handler(raw.shown(journalPrivacy.current))
        }
    }

    /// Runs the service on the calling thread until SIGTERM or SIGINT (with `signals`) or `stop()`.
    public func run() throws {
        fleetFollower?.start()
        defer { fleetFollower?.stop() }
        try service.run()
    }

    /// Starts the service on its own thread; returns once its lines and sockets are set up.
    public func start() throws {
        try service.start()
        fleetFollower?.start()
    }

    /// Stops the service (door locked, relay off, lines released) and the simulators it started.
    /// Safe after `run()` returned, and more than once.
    public func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        fleetFollower?.stop()
        service.stop()
        simulator?.stop()
        simulatedSensor?.control.stop()
    }

    /// The config file's, checked as `fpmod config check` checks it, or a simulator's defaults.
    private static func configuration(_ settings: ServiceSettings) throws -> (LockConfig, BoardPreset) {
        do {
            if let configPath = settings.configPath {
                // Every problem of the file at once (keys, board, lines against the preset).
                return try LockConfigCheck(path: configPath).usable(source: configPath)
            }
            guard settings.simulator != nil || settings.simulatedGPIO else { throw ServiceAssemblyError.noConfiguration }
            var config = LockConfig()
            if settings.simulatedGPIO { config.board = "gpio-vm" }
            return (config, try config.loadBoard())
        } catch let error as LockConfigError {
            throw ServiceAssemblyError.config(error.description)
        }
    }

    /// What SIGHUP and `reload` re-read. The service takes every config this returns (it refuses
    /// only one that fails to load), so the journal's privacy follows it here.
    private static func loader(_ configPath: String?, initial: LockConfig,
                               journalPrivacy: JournalPrivacy) -> @Sendable () throws -> LockConfig {
        {
            guard let configPath else { return initial }
            let fresh = try LockConfig.load(path: configPath)
            journalPrivacy.update(fresh.privacy.log)
            return fresh
        }
    }
}

/// The config's `privacy.log`, written by a reload and read for every event.
private final class JournalPrivacy: Sendable {
    private let value: Mutex<IdentityPrivacy>
    init(_ privacy: IdentityPrivacy) { value = Mutex(privacy) }
    var current: IdentityPrivacy { value.withLock { $0 } }
    func update(_ privacy: IdentityPrivacy) { value.withLock { $0 = privacy } }
}

/// The reader the settings name, as the service reaches it, and the simulator serving it.
private struct ReaderEndpoint {
    let location: String
    let reader: ReaderConnection
    var simulator: ModuleSimulatorServer?
    var simulatedSensor: ImageSensorConnections.Simulation?

    init(_ settings: ServiceSettings, config: LockConfig, preset: BoardPreset, chip: any GPIOChip,
         identity: ModuleIdentity?) throws {
        // Only while the store has no pairing: a paired module is opened with the pairing's.
        let address = settings.address ?? config.address ?? Frame.defaultAddress
        let password = settings.password ?? config.password ?? 0
        let family = settings.family ?? config.family ?? identity.flatMap { ModuleFamily(rawValue: $0.family) }
        let baud = settings.baudRate ?? config.baudRate
        let hostSettings = HostReader.Settings(config)
        if let simulation = settings.simulator {
            let directory = Self.socketDirectory(config, environment: settings.environment)
            let controlPath = directory + "/sim-control.sock"
            // The service creates its socket directory later; the simulator listens first.
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let gpioVerbs = settings.simulatedGPIO ? ", 'exit', 'door open'" : ""
            if simulation.isImageSensor {
                let sensor = try ImageSensorConnections.simulate(imagesDirectory: simulation.imagesDirectory,
                                                                 controlPath: controlPath, settings: hostSettings)
                simulatedSensor = sensor
                location = sensor.connection
                reader = sensor.reader
                settings.progress("Simulated \(sensor.sensor.identity.model) image sensor, matching on the host; control it with lines such as 'touch NAME'\(gpioVerbs) on \(controlPath).")
            } else {
                let profile = SimulatorProfile.named(simulation.profile) ?? .r307
                let server = try ModuleSimulatorServer(.init(profile: profile, controlPath: controlPath,
                                                             statePath: simulation.statePath, searchModel: simulation.searchModel))
                server.start()
                simulator = server
                location = server.devicePath
                reader = .module(.serial(port: location, baudRate: baud, family: family, unpairedAddress: address, unpairedPassword: password))
                settings.progress("Simulated \(profile.name) on \(location); control it with lines such as 'touch NAME'\(gpioVerbs) on \(controlPath).")
            }
        } else if case .socketSensor(let path) = try ReaderChoice(Self.readerOptions(settings, config: config)) {
            // A simulated FPC1020 served by another process (`fpmod sim --profile fpc1020 --link PATH`).
            location = path
            reader = ImageSensorConnections.socket(path: path, settings: hostSettings)
        } else if settings.port == nil, let spi = settings.spiDevice ?? config.spiDevice {
            // An FPC1020A on spidev (--spi, else the config's spiDevice): the service matches on the host.
            location = spi
            reader = ImageSensorConnections.fpc1020(device: spi, wiring: preset.spi, chip: chip, settings: hostSettings)
        } else {
            location = settings.port ?? config.serialPort(preset: preset)
            reader = .module(.serial(port: location, baudRate: baud, family: family, unpairedAddress: address, unpairedPassword: password))
        }
    }

    func stop() {
        simulator?.stop()
        simulatedSensor?.control.stop()
    }

    /// The reader options that decide between a port, an SPI sensor and a sensor socket, refusing
    /// two of them as every command does.
    private static func readerOptions(_ settings: ServiceSettings, config: LockConfig) -> ReaderOptions {
        var options = ReaderOptions()
        options.port = settings.port
        options.spiDevice = settings.spiDevice
        options.sensorSocket = settings.sensorSocket
        options.config = config
        return options
    }

    /// Where the service's sockets go, so the simulator's control socket sits beside them.
    private static func socketDirectory(_ config: LockConfig, environment: [String: String]) -> String {
        let base = config.controlSocket.map { ($0 as NSString).deletingLastPathComponent }
        return base ?? LockConfig.defaultSocketDirectory(environment: environment, euid: CurrentProcess.effectiveUserID)
    }
}
