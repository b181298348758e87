import ArgumentParsing
import DoorLock
import FingerprintProtocol
import PrintableText
import ReaderSessions
import ServiceAssembly
import WebConsole

/// `fpmod run`: the door/kiosk lock service in the foreground (systemd runs it as is).
/// With --sim and --sim-gpio nothing is real: a simulated module (or, with --sim-profile fpc1020,
/// a simulated image sensor matched on the host) and memory GPIO in this process.
enum RunCommand {
    /// Other commands find the running service's config where `run` does.

    static func run(_ invocation: Invocation) throws -> ExitCode {
        // First, before any thread exists: signals become readable data for the service loop.
        let signals = try AssembledService.watchSignals()
        let service = try AssembledService.assemble(settings(invocation), signals: signals)
        defer { service.stop() }
        let json = invocation.json
        service.observeJournal { event in
            if json {
                StandardStreams.writeOutput(event.jsonLine + "\n")
            } else {
                // A field holds a name: escaped, so one event stays one line of plain text.
                let fields = event.fields.keys.sorted().map { "\($0)=\(Printable.escaped(event.fields[$0] ?? ""))" }.joined(separator: " ")
                StandardStreams.writeOutput("\(event.name)\(fields.isEmpty ? "" : " " + fields)\n")
            }
        }
        // Which files this service uses, so a journal shows at once whether it is the intended
        // store and config (paths only: the key's contents never appear).
        let simulated = [invocation.parsed.flag("sim") ? "--sim" : nil, invocation.parsed.flag("sim-gpio") ? "--sim-gpio" : nil]
            .compactMap { $0 }.joined(separator: " ")
        let configText = service.configPath.map { "config \($0)" } ?? "no config file (the defaults of \(simulated))"
        invocation.progress("fpmod run: board \(service.board), \(configText); \(service.isImageSensor ? "image sensor" : "module") "
                            + "on \(service.readerLocation); store \(service.storeDatabase) with key \(service.storeKey); "
                            + "control \(service.controlSocket), events \(service.eventsSocket)")
        // The door never depends on its console: one that cannot start is said, and the lock runs.
        var console: ConsoleHost?
        do {
            console = try ConsoleHost.startIfEnabled(config: service.config, configPath: service.configPath,
                                                     storeDatabase: service.storeDatabase, storeKey: service.storeKey,
                                                     eventsSocket: service.eventsSocket, environment: invocation.environment)
        } catch {
            invocation.progress("fpmod run: the console did not start (the lock runs without it): \(error)")
        }
        defer { console?.stop() }
        if let console { invocation.progress("fpmod run: console at " + console.summary) }
        do {
            try service.run()
        } catch let error as LockServiceError {
            throw CommandFailure(.unavailable, error.description)
        }
        return .ok
    }

    /// The service this command line describes (the parser checked every value already).
    static func settings(_ invocation: Invocation) throws -> ServiceSettings {
        let parsed = invocation.parsed
        var settings = ServiceSettings()
        settings.configPath = parsed.string("config") ?? LockConfig.installedPathIfPresent
        settings.simulatedGPIO = parsed.flag("sim-gpio")
        settings.chipName = parsed.string("chip")
        settings.port = parsed.string("port")
        settings.spiDevice = parsed.string("spi")
        settings.sensorSocket = parsed.string("sensor-socket")
        if parsed.flag("sim") {
            settings.simulator = SimulatorOptions(profile: parsed.string("sim-profile") ?? "r307", imagesDirectory: parsed.string("sim-images"),
                                                  searchModel: invocation.simulatorSearchModel, statePath: invocation.simulatorStatePath)
        }
        settings.address = try parsed.hexUInt32("address")
        settings.password = try parsed.hexUInt32("password")
        settings.family = try parsed.choice("family", as: ModuleFamily.self)
        settings.baudRate = try parsed.int("baud", range: 9600...115_200)
        (settings.storeDatabase, settings.storeKey) = (parsed.string("store"), parsed.string("key"))
        settings.environment = invocation.environment
        settings.softwareVersion = Program.version
        settings.progress = { StandardStreams.writeError($0 + "\n") }
        return settings
    }
}
