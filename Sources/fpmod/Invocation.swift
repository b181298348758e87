import ArgumentParsing
import DoorLock
import Foundation
import ModuleSimulator
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

    /// Progress and prompts: always stderr, never mixed into results.
    func progress(_ text: String) {
        StandardStreams.writeError(text + "\n")
    }

    /// The store's database and key file, the same way for every command (and `fpmod run`):
    /// --store/--key (FPMOD_STORE/FPMOD_STORE_KEY), else the config's `store.database`/`store.key`
    /// (--config FILE, else /etc/fpmod/config.json when it exists), else `StorePaths.defaults()`.
    var storePaths: (database: String, key: String) {
        let defaults = StorePaths.defaults()
        let configured = configuredStore
        return (parsed.string("store") ?? configured.database ?? defaults.database,
                parsed.string("key") ?? configured.key ?? defaults.key)
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
            ?? (FileManager.default.fileExists(atPath: RunCommand.defaultConfigPath) ? RunCommand.defaultConfigPath : nil)
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

    /// Where `--sim` keeps its module's flash, beside the store, so consecutive commands see the
    /// same simulated module as they would a real one. (The simulated image sensor keeps no
    /// state: its library is the store.)
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
    /// The reader this command line names, with the config file's `spiDevice` as the fall-back
    /// (see `ReaderChoice`).
    func readerChoice(moduleCommand: Bool = false) throws -> ReaderChoice {
        try ReaderChoice(parsed, moduleCommand: moduleCommand, configuredSPI: configFile?.spiDevice)
    }
}
