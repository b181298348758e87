import DoorLock
import Foundation
import Glibc
import Posix

/// The config file the setup guide writes: what it learned (board, port, baud, family, store),
/// nothing else, so every other key keeps its documented default.
struct SetupConfigFile {
    var board: String
    /// nil with --sim: the simulator's pseudo-terminal changes every run.
    var serialPort: String?
    var baudRate: Int?
    var family: String?
    var storeDatabase: String
    var storeKey: String

    /// `/etc/fpmod/config.json` as root (where `fpmod run` looks), else `$XDG_CONFIG_HOME/fpmod/config.json`.
    static func defaultPath(euid: UInt32 = CurrentProcess.effectiveUserID, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if euid == 0 { return RunCommand.defaultConfigPath }
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/fpmod/config.json" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        return (home == "/" ? "" : home) + "/.config/fpmod/config.json"
    }

    /// Pretty, key-sorted JSON text.
    func text() throws -> String {
        var object: [String: Any] = ["board": board, "store": ["database": storeDatabase, "key": storeKey]]
        if let serialPort { object["serialPort"] = serialPort }
        if let baudRate, baudRate != 57_600 { object["baudRate"] = baudRate }
        if let family { object["family"] = family }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Every problem `fpmod config check` would report for `text` (the lines against the preset's
    /// layout only: the GPIO chip is checked when the service starts).
    static func problems(in text: String, source: String) -> [String] {
        do {
            let config = try LockConfig.parse(Data(text.utf8), source: source)
            return config.problems(preset: try config.loadBoard(), chip: nil)
        } catch {
            return error.problems
        }
    }

    /// Writes `text` to `path` through a temporary file, fsync and a rename (`AtomicFile`):
    /// never a half-written config, not even after a power cut.
    static func write(_ text: String, to path: String) throws {
        let directory = (path as NSString).deletingLastPathComponent
        let advice = "Run fpmod setup as root for /etc/fpmod, or pass --config PATH."
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
        } catch {
            throw CommandFailure(.ioError, "Cannot write \(path): \(error.localizedDescription). \(advice)")
        }
        do throws(Errno) {
            try AtomicFile.replace(path, with: Array(text.utf8), mode: 0o644)
        } catch {
            throw CommandFailure(.ioError, "Cannot write \(path): \(error). \(advice)")
        }
    }
}
