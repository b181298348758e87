import Glibc

/// Where the database and its key live when the user passes no path.
public enum StorePaths {
    /// Root: `/var/lib/fpmod/fpmod.db` and `/etc/fpmod/store.key`. Anyone else:
    /// `$XDG_DATA_HOME/fpmod/fpmod.db` and `$XDG_CONFIG_HOME/fpmod/store.key`
    /// (defaults `~/.local/share`, `~/.config`). The key sits apart from the data on purpose.
    public static func defaults(euid: UInt32, environment: [String: String]) -> (database: String, key: String) {
        if euid == 0 { return ("/var/lib/fpmod/fpmod.db", "/etc/fpmod/store.key") }
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
        var environment: [String: String] = [:]
        for name in ["HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        return defaults(euid: geteuid(), environment: environment)
    }
}
