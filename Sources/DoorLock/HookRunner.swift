import Glibc

/// Starts hook commands without waiting for them (`posix_spawnp`, signals unblocked and reset
/// in the child) and reaps them later with `WNOHANG`, so a slow hook never holds the loop.
final class HookRunner {
    private(set) var running: [pid_t] = []
    /// Problems starting a hook, for the log.
    var onFailure: (String) -> Void = { _ in }

    func spawn(_ argv: [String], environment extra: [String: String]) {
        var environment = ProcessEnvironment.current()
        for (key, value) in extra { environment[key] = value }
        let envStrings = environment.map { "\($0.key)=\($0.value)" }
        var pid: pid_t = 0
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = envStrings.map { strdup($0) } + [nil]
        defer {
            cArgs.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        let result = posix_spawnp(&pid, argv[0], nil, &attributes, cArgs, cEnv)
        if result == 0 {
            running.append(pid)
        } else {
            onFailure("hook \(argv[0]) could not start: \(String(cString: strerror(result))); check the path in the config's hooks")
        }
    }

    /// Collects every finished hook; returns how many are still running.
    @discardableResult
    func reap() -> Int {
        running.removeAll { pid in
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            return result == pid || (result == -1 && errno == ECHILD)
        }
        return running.count
    }
}

enum ProcessEnvironment {
    static func current() -> [String: String] {
        var result: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}
