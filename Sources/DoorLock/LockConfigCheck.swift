import Foundation
import GPIO
import TemplateStore

/// Everything that keeps a config file from being used, found in one pass: every bad key (the
/// rest still read), the board preset, and the lines against the preset's chip (its layout,
/// its line count, a Raspberry Pi's header) or the chip itself when there is one. `fpmod config
/// check` lists them all, and `fpmod run` refuses to start on any of them.
public struct LockConfigCheck: Sendable {
    /// The config as read: only usable when `problems` is empty.
    public private(set) var config: LockConfig?
    /// The board preset, when `board` named one that loads.
    public private(set) var preset: BoardPreset?
    public private(set) var problems: [String]
    /// Where each key's value is in the file (empty for a file that could not be read).
    private var positions: [String: LockConfigJSONSyntax.Position] = [:]

    /// Checks the file at `path`. `chip` returns the chip to check the lines on, given the
    /// config as read and its preset (nil: the preset's knowledge of its chip only).
    public init(path: String, chip: (LockConfig, BoardPreset) -> (any GPIOChip)? = { _, _ in nil }) {
        let (config, problems) = LockConfig.loadPartially(path: path)
        self.init(config: config, problems: problems, chip: chip)
        if let data = FileManager.default.contents(atPath: path) { positions = LockConfigJSONSyntax(data).valuePositions }
    }

    /// The same for config text.
    public init(data: Data, chip: (LockConfig, BoardPreset) -> (any GPIOChip)? = { _, _ in nil }) {
        let (config, problems) = LockConfig.parsePartially(data)
        self.init(config: config, problems: problems, chip: chip)
        positions = LockConfigJSONSyntax(data).valuePositions
    }

    private init(config: LockConfig?, problems: [String], chip: (LockConfig, BoardPreset) -> (any GPIOChip)?) {
        self.config = config
        self.problems = problems
        guard let config else { return }
        do {
            let preset = try config.loadBoard()
            self.preset = preset
            self.problems += config.problems(preset: preset, chip: chip(config, preset))
        } catch {
            self.problems += error.problems
        }
    }

    /// "line L, column C" of the value a problem is about (its key path is the text before the
    /// first ": "; an unknown key's own path is not in the file's values, its parent's is).
    public func location(of problem: String) -> String? {
        guard let colon = problem.range(of: ": ") else { return nil }
        var path = Substring(problem[..<colon.lowerBound])
        while !path.isEmpty {
            if let position = positions[String(path)] { return position.description }
            guard let dot = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { break }
            path = path[..<dot]
        }
        return nil
    }

    /// The line and column of the value a problem is about, as numbers (a page marks the line).
    public func lineAndColumn(of problem: String) -> (line: Int, column: Int)? {
        guard let colon = problem.range(of: ": ") else { return nil }
        var path = Substring(problem[..<colon.lowerBound])
        while !path.isEmpty {
            if let position = positions[String(path)] { return (position.line, position.column) }
            guard let dot = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { break }
            path = path[..<dot]
        }
        return nil
    }

    /// Every problem `fpmod config check` reports, for any front end: the file's own, its hooks'
    /// and broker's, and the rules it makes with the store when one is given (read only).
    public func allProblems(store: TemplateStore?) -> [String] {
        guard let config else { return problems }
        var all = problems + config.hookProblems() + config.mqttProblems()
        if let store {
            do { all += try AccessRulesCheck.problems(config: config, store: store) } catch {
                all.append("the store's access rules cannot be read: \(error)")
            }
        }
        return all
    }

    /// The usable config, or the error naming every problem (`source`: the file's path).
    public func usable(source: String) throws(LockConfigError) -> (config: LockConfig, preset: BoardPreset) {
        guard problems.isEmpty, let config, let preset else { throw LockConfigError(source: source, problems: problems) }
        return (config, preset)
    }
}
