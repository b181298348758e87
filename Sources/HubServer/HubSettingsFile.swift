import Foundation

/// The packaged hub's settings, `/etc/default/fpmod-hub`: what `fpmod-hub.service` reads as its
/// environment (`FPMOD_HUB_DATABASE`, `FPMOD_HUB_LISTEN`, `FPMOD_HUB_NAMES`), so that `fpmod hub …`
/// run on the hub's machine reaches the same database without `--database`.
public enum HubSettingsFile {
    public static let path = "/etc/default/fpmod-hub"

    /// `KEY=VALUE` lines as systemd's `EnvironmentFile=` and a shell read them alike: `#`
    /// comments and blank lines skipped, one pair of surrounding quotes (double or single)
    /// removed. A line that is not an assignment is ignored, as systemd does.
    public static func values(of text: String) -> [String: String] {
        var values: [String: String] = [:]
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#"), !line.hasPrefix(";"), let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            guard !key.isEmpty, key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }) else { continue }
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
            }
            values[key] = value
        }
        return values
    }

    /// The database the settings file at `path` names; nil when there is no such file (a hub
    /// not installed from the package) or it names none.
    public static func database(at path: String = path) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              let database = values(of: text)["FPMOD_HUB_DATABASE"], !database.isEmpty else { return nil }
        return database
    }
}
