import DoorLock
import Foundation
import Posix

/// The config file the setup guide writes: what it learned (board, port, baud, family, store),
/// nothing else, so every other key keeps its documented default.
public struct SetupConfigFile: Equatable, Sendable {
    public var board: String
    /// nil for a simulated module: the simulator's pseudo-terminal changes every run.
    public var serialPort: String?
    public var baudRate: Int?
    public var family: String?
    public var storeDatabase: String
    public var storeKey: String

    public init(board: String, serialPort: String?, baudRate: Int?, family: String?, storeDatabase: String, storeKey: String) {
        self.board = board
        self.serialPort = serialPort
        self.baudRate = baudRate
        self.family = family
        self.storeDatabase = storeDatabase
        self.storeKey = storeKey
    }

    /// Where the installed service looks when no config is named.
    public static let installedPath = LockConfig.installedPath

    /// `installed` as root (where `fpmod run` looks), else `$XDG_CONFIG_HOME/fpmod/config.json`
    /// (`~/.config` when XDG_CONFIG_HOME is unset or relative).
    public static func defaultPath(euid: UInt32 = CurrentProcess.effectiveUserID, environment: [String: String],
                                   installed: String = installedPath) -> String {
        if euid == 0 { return installed }
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/fpmod/config.json" }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        return (home == "/" ? "" : home) + "/.config/fpmod/config.json"
    }

    /// Pretty, key-sorted JSON text.
    public func text() throws -> String {
        var object: [String: Any] = ["board": board, "store": ["database": storeDatabase, "key": storeKey]]
        if let serialPort { object["serialPort"] = serialPort }
        if let baudRate, baudRate != 57_600 { object["baudRate"] = baudRate }
        if let family { object["family"] = family }
        let data = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Every problem `fpmod config check` would report for `text` (the lines against the preset's
    /// layout only: the GPIO chip is checked when the service starts).
    public static func problems(in text: String, source: String) -> [String] {
        do {
            let config = try LockConfig.parse(Data(text.utf8), source: source)
            return config.problems(preset: try config.loadBoard(), chip: nil)
        } catch {
            return error.problems
        }
    }

    /// Writes `text` to `path` through a temporary file, fsync and a rename (`AtomicFile`):
    /// never a half-written config, not even after a power cut.
    public static func write(_ text: String, to path: String) throws(SetupError) {
        let directory = (path as NSString).deletingLastPathComponent
        let advice = "Run fpmod setup as root for /etc/fpmod, or pass --config PATH."
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o755])
        } catch {
            throw SetupError(.io, "Cannot write \(path): \(error.localizedDescription). \(advice)")
        }
        do throws(Errno) {
            try AtomicFile.replace(path, with: Array(text.utf8), mode: 0o644)
        } catch {
            throw SetupError(.io, "Cannot write \(path): \(error). \(advice)")
        }
    }
}
