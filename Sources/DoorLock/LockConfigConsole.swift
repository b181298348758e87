import Foundation

extension LockConfig {
    /// `console`: the web console (HTTPS, accounts with a setup code) and the kiosk lock screen.
    /// Off unless `enabled` is true: a door on a network grows a web face only when asked to.
    public struct Console: Sendable, Equatable {
        public var enabled = false
        /// The HTTPS port on `bind`.
        public var port = 8443
        /// The IPv4 address the console listens on ("0.0.0.0": every interface; "127.0.0.1": this machine only).
        public var bind = "0.0.0.0"
        /// The kiosk lock screen's plain-HTTP port, always on 127.0.0.1 only; nil: no lock screen.
        public var lockScreenPort: Int?
        /// A certificate and key of the user's (PEM files); nil: a self-signed one made on first start.
        public var certificate: String?
        public var key: String?
        /// Extra names for the self-signed certificate (the machine's host name and addresses are in it already).
        public var hostNames: [String] = []
        /// A session ends after this long without a request, and after `sessionHours` in all.
        public var idleMinutes = 30
        public var sessionHours = 12

        public init() {}
    }

    static let consoleKeys = ["enabled", "port", "bind", "lockScreenPort", "certificate", "key", "hostNames", "idleMinutes", "sessionHours"]

    mutating func readConsole(_ object: [String: Any], _ r: inout ConfigReader) {
        r.rejectUnknownKeys(object, known: Self.consoleKeys, at: "console")
        var settings = Console()
        if let v = object["enabled"] { settings.enabled = r.bool(v, "console.enabled") ?? false }
        if let v = object["port"] { settings.port = r.integer(v, "console.port", range: 1...65535) ?? settings.port }
        if let v = object["bind"], let text = r.string(v, "console.bind") {
            if Self.isIPv4(text) { settings.bind = text } else {
                r.problem("console.bind", "'\(text)' is not an IPv4 address; use \"0.0.0.0\" (every interface) or \"127.0.0.1\" (this machine only)")
            }
        }
        if let v = object["lockScreenPort"], !(v is NSNull) {
            settings.lockScreenPort = r.integer(v, "console.lockScreenPort", range: 1...65535)
        }
        if let v = object["certificate"], let path = r.string(v, "console.certificate") { settings.certificate = r.absolutePath(path, "console.certificate") }
        if let v = object["key"], let path = r.string(v, "console.key") { settings.key = r.absolutePath(path, "console.key") }
        if (object["certificate"] == nil) != (object["key"] == nil) {
            r.problem(object["certificate"] == nil ? "console.certificate" : "console.key",
                      "missing: give both console.certificate and console.key (PEM files), or neither for a self-signed certificate")
        }
        if let v = object["hostNames"] {
            if let names = v as? [String], !(v is String) {
                for (index, name) in names.enumerated() {
                    if Self.isHostName(name) { settings.hostNames.append(name) } else {
                        r.problem("console.hostNames[\(index)]", "'\(name)' is not a host name; use letters, digits, '-' and '.', e.g. \"door.local\"")
                    }
                }
            } else {
                r.problem("console.hostNames", "is a list of names the console is reached by, such as [\"door.local\"]")
            }
        }
        if let v = object["idleMinutes"] { settings.idleMinutes = r.integer(v, "console.idleMinutes", range: 5...240, unit: " minutes") ?? settings.idleMinutes }
        if let v = object["sessionHours"] { settings.sessionHours = r.integer(v, "console.sessionHours", range: 1...72, unit: " hours") ?? settings.sessionHours }
        if let lock = settings.lockScreenPort, lock == settings.port {
            r.problem("console.lockScreenPort", "is the console's own port \(lock); give the lock screen a port of its own, e.g. 8080")
        }
        console = settings
    }

    static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCII) && part.allSatisfy(\.isNumber) && Int(part).map { $0 <= 255 } == true
        }
    }

    static func isHostName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 253 && text.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }
}

extension ConfigReader {
    mutating func absolutePath(_ path: String, _ key: String) -> String? {
        if path.hasPrefix("/") { return path }
        problem(key, "'\(path)' is not an absolute path; use e.g. /etc/fpmod/console.pem")
        return nil
    }
}
