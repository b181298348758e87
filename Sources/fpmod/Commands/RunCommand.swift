import ArgumentParsing
import DoorLock
import FingerprintModule
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

/// `fpmod run`: the door/kiosk lock service in the foreground (systemd runs it as is).
/// With --sim and --sim-gpio nothing is real: a simulated module (or, with --sim-profile fpc1020,
/// a simulated image sensor matched on the host) and memory GPIO in this process.
enum RunCommand {
    static let defaultConfigPath = "/etc/fpmod/config.json"

    static func run(_ invocation: Invocation) throws -> ExitCode {
        // First, before any thread exists: signals become readable data for the service loop.
        let signals = try SignalWatcher(signals: [SIGINT, SIGTERM, SIGHUP, SIGCHLD])
        let parsed = invocation.parsed
        let simGPIO = parsed.flag("sim-gpio")
        let configPath = parsed.string("config") ?? (FileManager.default.fileExists(atPath: defaultConfigPath) ? defaultConfigPath : nil)
        var config: LockConfig
        let preset: BoardPreset
        do {
            if let configPath {
                // Every problem of the file at once (keys, board, lines against the preset), as `config check` lists them.
                (config, preset) = try LockConfigCheck(path: configPath).usable(source: configPath)
            } else if parsed.flag("sim") || simGPIO {
                config = LockConfig()
                if simGPIO { config.board = "gpio-vm" }
                preset = try config.loadBoard()
            } else {
                throw CommandFailure(.config, "No configuration: give --config FILE (or FPMOD_CONFIG), or create \(defaultConfigPath) from tools/config.example.json; try without hardware with --sim --sim-gpio.")
            }
        } catch let error as LockConfigError {
            throw CommandFailure(.config, error.description)
        }

        let chip: any GPIOChip
        var simulatedChip: MemoryChip?
        if simGPIO {
            let memory = MemoryChip(preset: preset)
            simulatedChip = memory
            chip = memory
        } else if let name = parsed.string("chip") ?? config.chipName(preset: preset) {
            chip = try LibgpiodChip(name)
        } else {
            chip = MemoryChip(lineCount: 0)  // a board without GPIO: no lines, GenImg polling
        }
        let problems = config.problems(preset: preset, chip: chip)
        guard problems.isEmpty else {
            throw CommandFailure(.config, LockConfigError(source: configPath ?? "configuration", problems: problems).description)
        }

        let (storeDatabase, storeKey) = invocation.storePaths(configured: config)
        let store = try TemplateStore(databasePath: storeDatabase, keyPath: storeKey)
        let identity = try store.moduleIdentity()

        // Only while the store has no pairing: a paired module is opened with the pairing's.
        let address = try parsed.hexUInt32("address") ?? config.address ?? Frame.defaultAddress
        let password = try parsed.hexUInt32("password") ?? config.password ?? 0
        let family = try parsed.choice("family", as: ModuleFamily.self) ?? config.family ?? identity.flatMap { ModuleFamily(rawValue: $0.family) }
        let baud = try parsed.int("baud", range: 9600...115_200) ?? config.baudRate

        var simulator: ModuleSimulatorServer?
        var simulatedSensor: RunImageSensor.Simulation?
        // Where the reader is, for the banner and `status` (a port, or the simulated sensor).
        let port: String
        let reader: ReaderConnection
        if parsed.flag("sim") {
            let controlPath = Options.socketDirectory(config) + "/sim-control.sock"
            // The service creates its socket directory later; the simulator listens first.
            try FileManager.default.createDirectory(atPath: Options.socketDirectory(config), withIntermediateDirectories: true)
            let gpioVerbs = simGPIO ? ", 'exit', 'door open'" : ""
            if parsed.string("sim-profile") == SimulatorOptions.imageSensorProfile {
                let simulation = try RunImageSensor.simulate(imagesDirectory: parsed.string("sim-images"), controlPath: controlPath,
                                                              settings: HostReader.Settings(config))
                simulatedSensor = simulation
                port = simulation.connection
                reader = simulation.reader
                invocation.progress("Simulated \(simulation.sensor.identity.model) image sensor, matching on the host; control it with lines such as 'touch NAME'\(gpioVerbs) on \(controlPath).")
            } else {
                let profile = SimulatorProfile.named(parsed.string("sim-profile") ?? "r307") ?? .r307
                let server = try ModuleSimulatorServer(.init(profile: profile, controlPath: controlPath,
                                                             statePath: invocation.simulatorStatePath,
                                                             searchModel: invocation.simulatorSearchModel))
                server.start()
                simulator = server
                port = server.devicePath
                reader = .module(.serial(port: port, baudRate: baud, family: family, unpairedAddress: address, unpairedPassword: password))
                invocation.progress("Simulated \(profile.name) on \(port); control it with lines such as 'touch NAME'\(gpioVerbs) on \(controlPath).")
            }
        } else if case .socketSensor(let path) = try ReaderChoice(invocation.readerOptions(configured: config)) {
            // A simulated FPC1020 served by another process (`fpmod sim --profile fpc1020 --link PATH`).
            port = path
            reader = RunImageSensor.socket(path: path, settings: HostReader.Settings(config))
        } else if parsed.string("port") == nil, let spi = parsed.string("spi") ?? config.spiDevice {
            // An FPC1020A on spidev (--spi, else the config's spiDevice): the service matches on the host.
            port = spi
            reader = RunImageSensor.fpc1020(device: spi, wiring: preset.spi, chip: chip, settings: HostReader.Settings(config))
        } else {
            port = parsed.string("port") ?? config.serialPort(preset: preset)
            reader = .module(.serial(port: port, baudRate: baud, family: family, unpairedAddress: address, unpairedPassword: password))
        }
        defer {
            simulator?.stop()
            simulatedSensor?.control.stop()
        }
        if let simulatedChip {
            // The service's polarity (family from the store as well), so "no finger" reads as such.
            let lines = config.resolvedLines(preset: preset, family: config.family ?? identity.flatMap { ModuleFamily(rawValue: $0.family) })
            // Before the service reads them: no finger, door closed, tamper switch quiet.
            SimulatedInputs(chip: simulatedChip, lines: lines).rest()
            if let simulator {
                SimulatedInputs.connect(simulator, chip: simulatedChip, lines: lines)
            } else if let simulatedSensor {
                SimulatedInputs.connect(simulatedSensor.sensor, control: simulatedSensor.control, chip: simulatedChip, lines: lines)
            }
        }

        var options = LockService.Options(config: config, environment: invocation.environment)
        options.modulePort = port
        options.softwareVersion = Program.version
        options.storePath = storeDatabase
        let initial = config
        // The journal's `privacy.log`, kept current across reloads: the service takes every
        // config the loader returns (it refuses only one that fails to load).
        let logPrivacy = Mutex(config.privacy.log)
        let loader: @Sendable () throws -> LockConfig = {
            guard let configPath else { return initial }
            let fresh = try LockConfig.load(path: configPath)
            logPrivacy.withLock { $0 = fresh.privacy.log }
            return fresh
        }
        let service = try LockService(
            config: config, preset: preset, chip: chip, reader: reader, store: store, options: options, signals: signals, configLoader: loader)
        let json = invocation.json
        service.onEvent = { raw in
            guard raw.isPublic else { return }
            let event = raw.shown(logPrivacy.withLock { $0 })
            if json {
                StandardStreams.writeOutput(event.jsonLine + "\n")
            } else {
                // A field holds a name: escaped, so one event stays one line of plain text.
                let fields = event.fields.keys.sorted().map { "\($0)=\(Printable.escaped(event.fields[$0] ?? ""))" }.joined(separator: " ")
                StandardStreams.writeOutput("\(event.name)\(fields.isEmpty ? "" : " " + fields)\n")
            }
        }
        let readerKind = simulatedSensor != nil || reader.detectsFingerItself ? "image sensor" : "module"
        // Which files this service uses, so a journal shows at once whether it is the intended
        // store and config (paths only: the key's contents never appear).
        let simulated = [parsed.flag("sim") ? "--sim" : nil, simGPIO ? "--sim-gpio" : nil].compactMap { $0 }.joined(separator: " ")
        let configText = configPath.map { "config \($0)" } ?? "no config file (the defaults of \(simulated))"
        invocation.progress("fpmod run: board \(preset.name), \(configText); \(readerKind) on \(port); store \(storeDatabase) "
                            + "with key \(storeKey); control \(options.controlSocket), events \(options.eventsSocket)")
        do {
            try service.run()
        } catch let error as LockServiceError {
            throw CommandFailure(.unavailable, error.description)
        }
        return .ok
    }

    enum Options {
        static func socketDirectory(_ config: LockConfig) -> String {
            let base = config.controlSocket.map { ($0 as NSString).deletingLastPathComponent }
            return base ?? LockConfig.defaultSocketDirectory(environment: ProcessInfo.processInfo.environment, euid: CurrentProcess.effectiveUserID)
        }
    }
}
