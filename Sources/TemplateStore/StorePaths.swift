import Glibc
import Posix

/// Where the database and its key live when the user passes no path.
public enum StorePaths {
    /// The system store `tools/install.sh` sets up and the service uses.
    public static let system = (database: "/var/lib/fpmod/fpmod.db", key: "/etc/fpmod/store.key")

    /// The system store (`/var/lib/fpmod/fpmod.db`, `/etc/fpmod/store.key`) for root and for any
    /// user who can use its directory (the service user `fpmod`, so `sudo -u fpmod fpmod list`
    /// finds the service's store with no options). Anyone else, e.g. trying fpmod out without an
    /// install: `$XDG_DATA_HOME/fpmod/fpmod.db` and `$XDG_CONFIG_HOME/fpmod/store.key`
    /// (defaults `~/.local/share`, `~/.config`). The key sits apart from the data on purpose.
    public static func defaults(euid: UInt32, environment: [String: String],
                                systemStoreUsable: Bool = false) -> (database: String, key: String) {
        if euid == 0 || systemStoreUsable { return system }
        return personal(environment: environment)
    }

    /// The per-user store: `$XDG_DATA_HOME/fpmod/fpmod.db` and `$XDG_CONFIG_HOME/fpmod/store.key`
    /// (defaults `~/.local/share`, `~/.config`), whoever runs fpmod. `--sim` uses it even for
    /// root, so a trial never makes or pairs the installed store.
    public static func personal(environment: [String: String]) -> (database: String, key: String) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/"
        // The XDG spec says relative values are invalid and must be ignored.
        func base(_ variable: String, _ fallback: String) -> String {
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return home == "/" ? "/\(fallback)" : "\(home)/\(fallback)"
        }
        return ("\(base("XDG_DATA_HOME", ".local/share"))/fpmod/fpmod.db",
                "\(base("XDG_CONFIG_HOME", ".config"))/fpmod/store.key")
    }

    /// The defaults for this process.
    public static func defaults() -> (database: String, key: String) {
        let usable = FileSystem.isAccessible(parent(system.database), R_OK | W_OK | X_OK)
        return defaults(euid: CurrentProcess.effectiveUserID, environment: processEnvironment(), systemStoreUsable: usable)
    }

    /// The per-user store of this process's user (see `personal(environment:)`).
    public static func personal() -> (database: String, key: String) {
        personal(environment: processEnvironment())
    }

    private static func processEnvironment() -> [String: String] {
        var environment: [String: String] = [:]
        for name in ["HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return environment
    }

    private static func parent(_ path: String) -> String {
        String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
    }
}
