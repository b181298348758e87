import ConsoleHTTP
import DoorLock
import Foundation
import Glibc
import JSONValue
import Posix

/// `/api/v1/settings`: the door's config file, checked as `fpmod config check` checks it before
/// a byte is written, then replaced atomically and reloaded by the service (SIGHUP, as
/// `systemctl reload fpmod` does); what a reload cannot change is said, not hidden.
struct SettingsAPI {
    let context: ConsoleContext
    static let maximumBytes = 64 * 1024

    func read() throws(ConsoleFailure) -> HTTPResponse {
        let path = try configPath()
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConsoleFailure(500, "The config file \(path) cannot be read.", fix: "Check that it exists and that the service may read it.")
        }
        guard data.count <= Self.maximumBytes, let text = String(data: data, encoding: .utf8) else {
            throw ConsoleFailure(500, "The config file \(path) is not UTF-8 text of at most 64 KiB.")
        }
        return Reply.json(["path": .string(path), "config": .string(text)])
    }

    func save(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let path = try configPath()
        let text = try JSONBody(request).string("config")
        guard text.utf8.count <= Self.maximumBytes else { throw ConsoleFailure(413, "The config is over 64 KiB.") }
        let data = Data(text.utf8)
        let check = LockConfigCheck(data: data)
        let problems = check.allProblems(store: context.store)
        guard problems.isEmpty, let fresh = check.config else {
            return Reply.json(["problems": .array(problems.map { problem in
                let position = check.lineAndColumn(of: problem) ?? Self.lineAndColumn(inText: problem)
                return ["message": .string(problem), "line": position.map { .int(Int64($0.line)) } ?? .null,
                        "column": position.map { .int(Int64($0.column)) } ?? .null]
            })], status: 422)
        }
        let previous = try? LockConfig.load(path: path)
        let mode = (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.uint16Value ?? 0o644
        do { try AtomicFile.replace(path, with: Array(text.utf8), mode: mode_t(mode)) } catch {
            throw ConsoleFailure(500, "The config file \(path) could not be written: \(error).", fix: "Check the permissions of its folder.")
        }
        caller.audit(context.store, "saved the config \(path)")
        let restart = previous.map { $0.restartNeeded(toApply: fresh) } ?? ["everything"]
        let applied = reloadService()
        return Reply.json(["ok": true, "applied": .string(applied), "restartNeededFor": .array(restart.map { .string($0) })])
    }

    /// "… line 2, column 13: …" (a JSON syntax error names no key, only where it is).
    static func lineAndColumn(inText text: String) -> (line: Int, column: Int)? {
        guard let range = text.range(of: "line ") else { return nil }
        let rest = text[range.upperBound...]
        let line = rest.prefix { $0.isNumber }
        guard let lineNumber = Int(line), rest.dropFirst(line.count).hasPrefix(", column ") else { return nil }
        let column = rest.dropFirst(line.count + ", column ".count).prefix { $0.isNumber }
        guard let columnNumber = Int(column) else { return nil }
        return (lineNumber, columnNumber)
    }

    private func configPath() throws(ConsoleFailure) -> String {
        guard let path = context.configPath else {
            throw ConsoleFailure(409, "This console was started without a config file, so there are no settings to show.",
                                 fix: "Start it with --config FILE, or enable it in /etc/fpmod/config.json.")
        }
        return path
    }

    /// "reloaded" when a service serving this store took the signal, "saved" when none runs.
    private func reloadService() -> String {
        guard let service = try? context.serviceConnection(), let status = try? service.send(.status, lineTimeout: .seconds(5)),
              let pid = status["pid"]?.intValue, pid > 1 else { return "saved" }
        return kill(pid_t(pid), SIGHUP) == 0 ? "reloaded" : "saved"
    }
}
