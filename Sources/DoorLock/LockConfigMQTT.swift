import Foundation
import Glibc
import MQTT

extension LockConfig {
    /// The `mqtt` section: the Home Assistant bridge. Absent = no network face at all.
    public struct MQTT: Sendable, Equatable {
        public enum Scheme: String, Sendable, Equatable {
            case mqtt, mqtts

            var defaultPort: Int { self == .mqtt ? 1883 : 8883 }
        }

        /// Who may open the door from Home Assistant: nobody, or whoever sends a user's (or an
        /// admin's) PIN as the lock's code.
        public enum RemoteUnlock: String, Sendable, Equatable, CaseIterable {
            case off
            case userPIN = "user-pin"
            case adminPIN = "admin-pin"
        }

        /// The certificate files of an `mqtts://` broker, as the client takes them.
        public typealias TLS = MQTTTLS

        public var scheme: Scheme = .mqtt
        public var host: String = "127.0.0.1"
        public var port: Int = 1883
        /// The user name from the URL (`mqtt://fpmod@host`); its password is in `passwordFile`,
        /// never in the config, which is world-readable.
        public var username: String?
        public var passwordFile: String?
        public var discoveryPrefix = "homeassistant"
        /// The device's id in topics and unique ids (`[A-Za-z0-9_-]`, as Home Assistant requires).
        public var deviceID = "fpmod"
        public var remoteUnlock: RemoteUnlock = .off
        public var tls = TLS()
        public var adminCommands = false
        /// Unopened unlocks in a row before the lock shows `JAMMED` (`HomeAssistantJam`); 0 = never.
        public var jammedAfter = 2

        public init() {}
    }

    static let mqttKeys = ["url", "passwordFile", "discoveryPrefix", "deviceId", "remoteUnlock", "tls", "adminCommands",
                           "jammedAfter"]

    mutating func readMQTT(_ object: [String: Any], _ r: inout ConfigReader) {
        r.rejectUnknownKeys(object, known: Self.mqttKeys, at: "mqtt")
        var settings = MQTT()
        if let v = object["url"] {
            if let text = r.string(v, "mqtt.url") { settings.apply(url: text, &r) }
        } else {
            r.problem("mqtt.url", "missing; give the broker, e.g. \"mqtt://fpmod@127.0.0.1:1883\"")
        }
        if let v = object["passwordFile"], let path = r.string(v, "mqtt.passwordFile") {
            if path.hasPrefix("/") { settings.passwordFile = path } else {
                r.problem("mqtt.passwordFile", "'\(path)' is not an absolute path; use e.g. /etc/fpmod/mqtt.password")
            }
        }
        if settings.username != nil, settings.passwordFile == nil, object["url"] != nil {
            r.problem("mqtt.passwordFile", "missing: the url names user '\(settings.username!)'; put that user's "
                + "password in a file only the service can read (e.g. /etc/fpmod/mqtt.password, chmod 0600) and name it here")
        }
        if let v = object["discoveryPrefix"], let prefix = r.string(v, "mqtt.discoveryPrefix") {
            if prefix.contains(where: { "+#".contains($0) }) || prefix.hasPrefix("/") || prefix.hasSuffix("/") {
                r.problem("mqtt.discoveryPrefix", "'\(prefix)' is not a topic prefix; no + or #, no leading or trailing /; "
                    + "Home Assistant's default is \"homeassistant\"")
            } else {
                settings.discoveryPrefix = prefix
            }
        }
        if let v = object["deviceId"], let id = r.string(v, "mqtt.deviceId") {
            if id.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-") }) {
                settings.deviceID = id
            } else {
                r.problem("mqtt.deviceId", "'\(id)' may only have letters, digits, _ and - (Home Assistant's rule for "
                    + "discovery topics), e.g. \"front-door\"")
            }
        }
        if let v = object["remoteUnlock"] {
            settings.remoteUnlock = r.choice(v, "mqtt.remoteUnlock", MQTT.RemoteUnlock.self,
                                             choices: MQTT.RemoteUnlock.allCases.map(\.rawValue)) ?? .off
        }
        if let v = object["tls"], let tls = r.object(v, "mqtt.tls") {
            r.rejectUnknownKeys(tls, known: ["cafile", "certfile", "keyfile"], at: "mqtt.tls")
            for (key, path) in [("cafile", \MQTT.TLS.cafile), ("certfile", \.certfile), ("keyfile", \.keyfile)] {
                guard let x = tls[key], let file = r.string(x, "mqtt.tls." + key) else { continue }
                if file.hasPrefix("/") { settings.tls[keyPath: path] = file } else {
                    r.problem("mqtt.tls." + key, "'\(file)' is not an absolute path")
                }
            }
            if (settings.tls.certfile == nil) != (settings.tls.keyfile == nil) {
                r.problem("mqtt.tls", "certfile and keyfile go together: a client certificate needs its key, and a key its certificate")
            }
            if settings.scheme == .mqtt, object["url"] != nil {
                r.problem("mqtt.tls", "is set but the url is mqtt:// (plain TCP); use mqtts:// to connect with TLS")
            }
        }
        if let v = object["adminCommands"] { settings.adminCommands = r.bool(v, "mqtt.adminCommands") ?? false }
        if let v = object["jammedAfter"] {
            settings.jammedAfter = r.integer(v, "mqtt.jammedAfter", range: 0...10, unit: " unopened unlocks in a row (0 = never)")
                ?? settings.jammedAfter
        }
        mqtt = settings
    }

    /// Machine checks of the `mqtt` section (files that must exist, with safe modes), for
    /// `fpmod config check` and the service's start: `mqtt.passwordFile: /etc/fpmod/mqtt.password
    /// can be read by other users …; chmod 0600 …`.
    public func mqttProblems() -> [String] {
        guard let mqtt else { return [] }
        var problems: [String] = []
        if let file = mqtt.passwordFile {
            problems += Self.privateFileProblems(file, key: "mqtt.passwordFile", what: "the broker password (one line)")
        }
        for (key, file) in [("cafile", mqtt.tls.cafile), ("certfile", mqtt.tls.certfile)] {
            guard let file else { continue }
            if !FileManager.default.isReadableFile(atPath: file) {
                let reason = FileManager.default.fileExists(atPath: file) ? "cannot be read by this user" : "does not exist"
                problems.append("mqtt.tls.\(key): \(file) \(reason); give the PEM file's full path")
            }
        }
        if let key = mqtt.tls.keyfile {
            problems += Self.privateFileProblems(key, key: "mqtt.tls.keyfile", what: "the client certificate's private key (PEM)")
        }
        return problems
    }

    /// A secret the service reads: it must exist, be a regular file, and be closed to group and
    /// others, as ssh demands of a private key (whoever can read it can be the lock on the broker).
    static func privateFileProblems(_ file: String, key: String, what: String) -> [String] {
        var info = stat()
        guard stat(file, &info) == 0 else {
            if errno == ENOENT {
                return ["\(key): \(file) does not exist; create it with \(what), owned by the service user, and `chmod 0600 \(file)`"]
            }
            return ["\(key): \(file) cannot be examined (\(String(cString: strerror(errno)))); check the directories' permissions"]
        }
        guard info.st_mode & S_IFMT == S_IFREG else { return ["\(key): \(file) is not a regular file"] }
        let mode = UInt32(info.st_mode) & 0o777
        if mode & 0o077 != 0 {
            return ["\(key): \(file) can be read or written by other users (mode \(String(format: "%04o", mode))); "
                + "`chmod 0600 \(file)` and make the service user its owner"]
        }
        if !FileManager.default.isReadableFile(atPath: file) {
            return ["\(key): \(file) cannot be read by this user; make the service user its owner (chown) and `chmod 0600 \(file)`"]
        }
        return []
    }

    /// The broker password: the file's first line, without its line break.
    public func mqttPassword() throws -> String? {
        guard let file = mqtt?.passwordFile else { return nil }
        let text = try String(contentsOfFile: file, encoding: .utf8)
        return String(text.prefix { $0 != "\n" && $0 != "\r" })
    }
}

extension LockConfig.MQTT {
    /// `mqtt[s]://[user@]host[:port]`, host a name, an IPv4 address or `[IPv6]`.
    fileprivate mutating func apply(url text: String, _ r: inout ConfigReader) {
        let example = "e.g. \"mqtt://fpmod@127.0.0.1:1883\" or \"mqtts://fpmod@broker.lan:8883\""
        guard let separator = text.range(of: "://"), let parsedScheme = Scheme(rawValue: String(text[..<separator.lowerBound]).lowercased()) else {
            r.problem("mqtt.url", "'\(text)' does not start with mqtt:// or mqtts://; \(example)")
            return
        }
        scheme = parsedScheme
        var rest = Substring(text[separator.upperBound...])
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        if rest.contains("/") || rest.contains("?") || rest.contains("#") {
            r.problem("mqtt.url", "'\(text)' has a path or query; an MQTT url is only user, host and port; \(example)")
            return
        }
        if let at = rest.lastIndex(of: "@") {
            let user = rest[..<at]
            if user.contains(":") {
                r.problem("mqtt.url", "has a password in it; the config is readable by everyone: move the password to "
                    + "mqtt.passwordFile (chmod 0600) and keep only the user in the url")
                return
            }
            guard !user.isEmpty else {
                r.problem("mqtt.url", "'\(text)' has an empty user before @; \(example)")
                return
            }
            username = String(user)
            rest = rest[rest.index(after: at)...]
        }
        var hostPart = rest
        var portPart: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else {
                r.problem("mqtt.url", "'\(text)' has an unclosed [ in the IPv6 address; \(example)")
                return
            }
            hostPart = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") { portPart = after.dropFirst() } else if !after.isEmpty {
                r.problem("mqtt.url", "'\(text)' has something after the IPv6 address; \(example)")
                return
            }
        } else if let colon = rest.lastIndex(of: ":") {
            hostPart = rest[..<colon]
            portPart = rest[rest.index(after: colon)...]
        }
        guard !hostPart.isEmpty else {
            r.problem("mqtt.url", "'\(text)' names no host; \(example)")
            return
        }
        host = String(hostPart)
        port = scheme.defaultPort
        if let portPart {
            guard let number = Int(portPart), (1...65535).contains(number) else {
                r.problem("mqtt.url", "'\(portPart)' is not a port (1 to 65535); \(example)")
                return
            }
            port = number
        }
    }
}
