import Posix

/// Starts hook commands without waiting for them (`ChildProcess.spawn`) and reaps them later,
/// so a slow hook never holds the loop.
final class HookRunner {
    private(set) var running: [Int32] = []
    /// Problems starting a hook, for the log.
    var onFailure: (String) -> Void = { _ in }

    func spawn(_ argv: [String], environment extra: [String: String]) {
        var environment = ChildProcess.currentEnvironment
        for (key, value) in extra { environment[key] = value }
        do {
            running.append(try ChildProcess.spawn(argv, environment: environment))
        } catch {
            onFailure("hook \(argv.first ?? "?") could not start: \(error); check the path in the config's hooks")
        }
    }

    /// Collects every finished hook; returns how many are still running.
    @discardableResult
    func reap() -> Int {
        running.removeAll(where: ChildProcess.reap)
        return running.count
    }
}
