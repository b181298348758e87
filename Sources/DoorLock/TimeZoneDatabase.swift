import AccessPolicy
import Foundation

/// The machine's tzdata (Debian's `tzdata` package): an IANA name such as `Europe/Berlin` read
/// into `TimeZoneRules`. A door's schedules are wall-clock times, so the zone is part of every
/// schedule's meaning: an unknown name is an error, never a silent UTC.
public enum TimeZoneDatabase {
    public static let directory = "/usr/share/zoneinfo"

    public enum LoadError: Error, Equatable, CustomStringConvertible {
        /// Not a zone name at all (empty, absolute, `..`, odd characters).
        case badName(String)
        case unknown(String, suggestion: String?)
        case unreadable(String, reason: String)

        public var description: String {
            switch self {
            case .badName(let name):
                "\"\(name)\" is not a time zone name; use an IANA name such as \"Europe/Berlin\" or \"America/New_York\" (timedatectl list-timezones)"
            case .unknown(let name, let suggestion):
                "\"\(name)\" is not a time zone in \(TimeZoneDatabase.directory); "
                    + (suggestion.map { "did you mean \"\($0)\"? " } ?? "")
                    + "use an IANA name such as \"Europe/Berlin\" (timedatectl list-timezones); is the tzdata package installed?"
            case .unreadable(let name, let reason):
                "the time zone \"\(name)\" cannot be read from \(TimeZoneDatabase.directory): \(reason); reinstall the tzdata package"
            }
        }
    }

    /// The rules of the zone `name` (`Europe/Berlin`, `UTC`).
    public static func load(_ name: String, directory: String = directory) throws(LoadError) -> TimeZoneRules {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_+-")
        guard !name.isEmpty, name.utf8.count <= 64,
              parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && $0.allSatisfy(allowed.contains) }) else {
            throw .badName(name)
        }
        let path = directory + "/" + name
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw .unknown(name, suggestion: suggestion(for: name, directory: directory))
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(name, reason: "permission denied") }
        do { return try TimeZoneRules(name: name, tzif: [UInt8](data)) } catch {
            throw .unreadable(name, reason: "\(error)")
        }
    }

    /// The machine's own zone: the name `/etc/localtime` links to (or `/etc/timezone` names),
    /// UTC when neither says.
    public static func system(directory: String = directory) -> TimeZoneRules {
        for name in [systemZoneName(), "UTC"].compactMap({ $0 }) {
            if let rules = try? load(name, directory: directory) { return rules }
        }
        return .utc
    }

    static func systemZoneName() -> String? {
        if let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"),
           let range = target.range(of: "zoneinfo/") {
            return String(target[range.upperBound...])
        }
        if let text = try? String(contentsOfFile: "/etc/timezone", encoding: .utf8) {
            let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return name.isEmpty ? nil : name
        }
        return nil
    }

    /// A zone the admin probably meant: the same name in other case (`europe/berlin`), the city
    /// alone (`Berlin`), or one a typo or two away, from tzdata's own list of zones.
    static func suggestion(for name: String, directory: String) -> String? {
        let zones = zoneNames(directory: directory)
        let lowered = name.lowercased()
        if let exact = zones.first(where: { $0.lowercased() == lowered }) { return exact }
        if let city = zones.first(where: { $0.lowercased().hasSuffix("/" + lowered) }) { return city }
        return ConfigReader.closest(name, in: zones)
    }

    /// The canonical zone names tzdata lists (`zone1970.tab`, else `zone.tab`), plus UTC.
    static func zoneNames(directory: String) -> [String] {
        for table in ["zone1970.tab", "zone.tab"] {
            guard let text = try? String(contentsOfFile: directory + "/" + table, encoding: .utf8) else { continue }
            let names = text.split(separator: "\n").compactMap { line -> String? in
                guard !line.hasPrefix("#") else { return nil }
                let columns = line.split(separator: "\t")
                return columns.count >= 3 ? String(columns[2]) : nil
            }
            return names + ["UTC"]
        }
        return ["UTC"]
    }
}
