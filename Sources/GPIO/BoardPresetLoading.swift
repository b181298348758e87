import Foundation

/// Why a board preset could not be loaded.
public enum BoardPresetError: Error, Sendable, Equatable, CustomStringConvertible {
    case notFound(name: String, searched: [String], available: [String])
    case unreadable(path: String, reason: String)
    case invalidJSON(source: String, detail: String)
    case invalid(source: String, problems: [String])

    public var description: String {
        switch self {
        case let .notFound(name, searched, available):
            let places = searched.isEmpty ? "" : " (looked in \(searched.joined(separator: ", ")))"
            return "No board preset named '\(name)'\(places). Built-in presets: "
                + "\(available.joined(separator: ", ")). Pick one of those or put \(name).json in one of the folders."
        case let .unreadable(path, reason):
            return "Cannot read board preset \(path): \(reason). Check the path and its permissions."
        case let .invalidJSON(source, detail):
            return "Board preset \(source) is not valid: \(detail). Compare it with boards/rpi4.json."
        case let .invalid(source, problems):
            return "Board preset \(source) has problems:\n- " + problems.joined(separator: "\n- ")
                + "\nFix these keys and run `fpmod config check` again."
        }
    }
}

extension BoardPreset {
    /// Every built-in preset, decoded from the embedded JSON.
    public static let builtIn: [BoardPreset] = builtInJSON.map { name, json in
        do {
            return try decode(Data(json.utf8), source: "built-in \(name)")
        } catch {
            fatalError("embedded board preset \(name) is broken: \(error)")  // caught by the tests
        }
    }

    /// Folders searched for `<name>.json` before the built-in presets:
    /// `/etc/fpmod/boards`, then `boards/` beside the executable and `../share/fpmod/boards`.
    public static var defaultSearchPaths: [String] {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let folder = executable.deletingLastPathComponent()
        return [
            "/etc/fpmod/boards",
            folder.appendingPathComponent("boards").path,
            folder.deletingLastPathComponent().appendingPathComponent("share/fpmod/boards").path,
        ]
    }

    /// The preset called `name`: the first `<dir>/<name>.json` in `searchPaths`, else the
    /// built-in one. A file found is validated like a built-in preset.
    public static func load(name: String, searchPaths: [String] = defaultSearchPaths) throws(BoardPresetError) -> BoardPreset {
        for folder in searchPaths {
            let path = folder + "/" + name + ".json"
            if FileManager.default.fileExists(atPath: path) { return try load(path: path) }
        }
        if let preset = builtIn.first(where: { $0.name == name }) { return preset }
        throw .notFound(name: name, searched: searchPaths, available: builtIn.map(\.name))
    }

    /// Reads, decodes and validates one preset file.
    public static func load(path: String) throws(BoardPresetError) -> BoardPreset {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path: path, reason: error.localizedDescription)
        }
        return try decode(data, source: path)
    }

    /// Decodes and validates preset JSON; `source` names it in errors.
    public static func decode(_ data: Data, source: String) throws(BoardPresetError) -> BoardPreset {
        let preset: BoardPreset
        do {
            preset = try JSONDecoder().decode(BoardPreset.self, from: data)
        } catch let error as DecodingError {
            throw .invalidJSON(source: source, detail: describe(error))
        } catch {
            throw .invalidJSON(source: source, detail: "\(error)")
        }
        let problems = preset.problems()
        guard problems.isEmpty else { throw .invalid(source: source, problems: problems) }
        return preset
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty ? "the top level" : keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
                .joined(separator: ".")
        }
        switch error {
        case let .keyNotFound(key, context):
            return "missing key '\(key.stringValue)' at \(path(context.codingPath))"
        case let .typeMismatch(_, context), let .valueNotFound(_, context), let .dataCorrupted(context):
            return "\(context.debugDescription) at \(path(context.codingPath))"
        @unknown default:
            return "\(error)"
        }
    }
}
