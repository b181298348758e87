import ArgumentParsing
import DoorLock
import Foundation
import FingerprintProtocol
import ModuleSimulator
import ReaderSessions
import ServiceClient
import TemplateStore

/// One run of fpmod: the parsed command line plus what every command needs from it
/// (output mode, store location, module settings).
struct Invocation {
    let parsed: ParsedCommand
    let environment: [String: String]

    var json: Bool { parsed.flag("json") }
    var verbosity: Int { parsed.flagCount("verbose") }

    /// Prints a result: the human text, or the JSON value with --json.
    func emit(_ text: @autoclosure () -> String, json value: @autoclosure () -> JSONValue) {
        if json {
            JSONOutput.print(value())
        } else {
            let line = text()
            if !line.isEmpty { StandardStreams.writeOutput(line.hasSuffix("\n") ? line : line + "\n") }
        }
    }

    /// Progress: always stderr, never mixed into results.
    func progress(_ text: String) {
        StandardStreams.writeError(text + "\n")
    }

    /// How a command asks the person (secrets, confirmations, finger steps): on stderr, read
    /// from stdin — the one `Prompter` every command goes through.
    var prompter: TerminalPrompts { TerminalPrompts(.command) }

    /// The store's database and key file, the same way for every command (and `fpmod run`):
    /// --store/--key (FPMOD_STORE/FPMOD_STORE_KEY), else the config's `store.database`/`store.key`
    /// (--config FILE, else /etc/fpmod/config.json when it exists), else `StorePaths.defaults()`
    /// — with --sim the per-user store, even for root. A database named without its key has its
    /// key beside it (`StorePaths.choose`).
    var storePaths: (database: String, key: String) {
        StorePaths.choose(named: (parsed.string("store"), parsed.string("key")),
                          configured: configuredStore, defaults: defaultStore)
    }

    private var defaultStore: (database: String, key: String) {
        parsed.flag("sim") ? StorePaths.personal() : StorePaths.defaults()
    }

    /// With --sim, refuses a store or key in the installed service's directories before anything
    /// is opened: a simulated module paired with the door's store, or a key made in /etc/fpmod,
    /// would outlive the trial.
    func refuseProductionStoreForSimulator() throws {
        guard parsed.flag("sim") else { return }
        let paths = storePaths
        guard let inProduction = [paths.database, paths.key].first(where: StorePaths.isInProductionDirectory) else { return }
        throw CommandFailure(.config, """
            --sim would use \(inProduction), which belongs to the installed service \
            (\(StorePaths.productionDirectories.joined(separator: " and ")) hold nothing simulated): a store paired \
            with a simulated module, or a key made for one, would outlive the trial. Give the simulator a store of \
            its own, e.g. --store ~/fpmod-trial.db (its key goes beside it), or leave --store, --key and the \
            config's store out to use your personal store (~/.local/share/fpmod).
            """)
    }

    /// The store paths of the config file, when one is given or installed and it says them. An
    /// explicitly named config that does not load was refused already (`OptionCheck`); the
    /// installed one is only a fall-back here, reported by `run` and `config check`.
    private var configuredStore: (database: String?, key: String?) {
        guard let config = configFile else { return (nil, nil) }
        return (config.storeDatabase, config.storeKey)
    }

    /// The config file (--config FILE, else /etc/fpmod/config.json when it exists) when it
    /// loads: store paths, and the board whose spi section places an SPI sensor's lines.
    var configFile: LockConfig? {
        let path = parsed.string("config")
            ?? LockConfig.installedPathIfPresent
        guard let path else { return nil }
        return try? LockConfig.load(path: path)
    }

    /// Opens the store at `storePaths`. Only the commands that start a store (enroll, restore,
    /// setup, pair: `Commands.storeCreators`) pass `create`; the others report that no store
    /// is there instead of answering from a new, empty one.
    func openStore(create: Bool = false) throws -> TemplateStore {
        let paths = storePaths
        return try TemplateStore(databasePath: paths.database, keyPath: paths.key, create: create)
    }

    /// The store for a command that only reads it (list, log, info, doctor): never written,
    /// so a read-only copy or a store this user may not write can still be read.
    func openStoreForReading() throws -> TemplateStore {
        let paths = storePaths
        return try TemplateStore(readingOnly: paths.database, keyPath: paths.key)
    }

    /// The store a given config names (`config check FILE` checks FILE's, not the installed
    /// one's), read-only; --store and --key still win.
    func openStoreForReading(configured config: LockConfig) throws -> TemplateStore {
        let paths = StorePaths.choose(named: (parsed.string("store"), parsed.string("key")),
                                      configured: (config.storeDatabase, config.storeKey), defaults: defaultStore)
        return try TemplateStore(readingOnly: paths.database, keyPath: paths.key)
    }

    /// Where `--sim` keeps its module's flash, beside the store, so consecutive commands see the
    /// same simulated module as they would a real one (never in a production directory:
    /// `refuseProductionStoreForSimulator`). (The simulated image sensor keeps no state: its
    /// library is the store.)
    var simulatorStatePath: String {
        let directory = (storePaths.database as NSString).deletingLastPathComponent
        return directory + "/sim-" + (parsed.string("sim-profile") ?? "r307") + ".state"
    }

    /// How the `--sim` module's Search walks its library (`--sim-search-model`; the parser
    /// already refused anything but the two choices).
    var simulatorSearchModel: SearchModel {
        parsed.string("sim-search-model").flatMap(SearchModel.init(rawValue:)) ?? .bestMatch
    }

    func positional(_ index: Int) -> String? { parsed.positional(index) }
}

extension Invocation {
    /// What opening a reader takes, from this command line: every value checked here, before
    /// anything opens (a malformed --address or --baud is a usage error, not a half-open port).
    func readerOptions(configured config: LockConfig? = nil) throws -> ReaderOptions {
        var options = ReaderOptions()
        options.port = parsed.string("port")
        options.spiDevice = parsed.string("spi")
        options.sensorSocket = parsed.string("sensor-socket")
        if parsed.flag("sim") {
            let profile = parsed.string("sim-profile") ?? "r307"
            guard profile == SimulatorOptions.imageSensorProfile || SimulatorProfile.named(profile) != nil else {
                throw UsageError(.invalidValue(subject: "--sim-profile", value: profile, expected: "r307, as608, r503 or fpc1020"),
                                 programName: parsed.programName, commandPath: parsed.path)
            }
            // FPMOD_SIM_IMAGES left over in the environment does not stop a simulated module;
            // --sim-images given to one does (`ReaderSessionError.simulatedImagesNeedSensorProfile`).
            let images = profile == SimulatorOptions.imageSensorProfile || parsed.isExplicit("sim-images")
                ? parsed.string("sim-images") : nil
            options.simulator = SimulatorOptions(profile: profile, imagesDirectory: images, finger: parsed.string("sim-finger"),
                                                 searchModel: simulatorSearchModel, statePath: simulatorStatePath)
        }
        options.address = try parsed.hexUInt32("address")
        options.password = try parsed.hexUInt32("password")
        options.family = try parsed.choice("family", as: ModuleFamily.self)
        options.baudRate = try parsed.int("baud", range: 9600...115_200)
        if parsed.declares("irq-line") {
            options.wiring = SensorWiringOptions(
                board: parsed.string("board"), speedHz: try parsed.int("speed", range: 100_000...8_000_000),
                noGPIO: parsed.flag("no-gpio"), irqLine: try parsed.int("irq-line", range: 0...1023),
                resetLine: try parsed.int("reset-line", range: 0...1023), chip: parsed.string("chip"))
        }
        options.config = config ?? configFile
        // Only the commands that wait for a finger declare --timeout.
        if ["enroll", "identify", "verify", "enable", "disable"].contains(parsed.path.last ?? ""), parsed.declares("timeout") {
            options.fingerTimeout = try parsed.duration("timeout")
        }
        options.failpoint = environment["FPMOD_FAILPOINT"]
        options.trace = verbosity > 0
        options.command = parsed.path
        (options.storeDatabase, options.storeKey) = storePaths
        options.progress = { StandardStreams.writeError($0 + "\n") }
        return options
    }

    /// Where a running service would listen, and what this command line wants of it.
    func serviceAddress() -> ServiceAddress {
        var address = ServiceAddress(configPath: parsed.string("config"), environment: environment,
                                     storeDatabase: storePaths.database)
        address.direct = parsed.flag("direct")
        address.simulated = parsed.flag("sim")
        address.port = parsed.string("port")
        address.store = parsed.string("store")
        address.progress = { StandardStreams.writeError($0 + "\n") }
        return address
    }

    /// The reader this command line names, with the config file's `spiDevice` as the fall-back
    /// (see `ReaderChoice`).
    func readerChoice(moduleCommand: Bool = false) throws -> ReaderChoice {
        try ReaderChoice(readerOptions(), moduleCommand: moduleCommand)
    }
}
