import Glibc

/// Starting commands without waiting for them, and reaping them later (the service's hooks).
public enum ChildProcess {
    /// `posix_spawnp(3)` of `argv` with exactly `environment`, signals unblocked and reset to
    /// their defaults in the child (the service blocks them for its signalfd).
    public static func spawn(_ argv: [String], environment: [String: String]) throws(Errno) -> pid_t {
        guard let program = argv.first else { throw Errno.invalidArgument }
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
        let cEnv = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArgs.forEach { free($0) }
            cEnv.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, program, nil, &attributes, cArgs, cEnv)
        guard result == 0 else { throw Errno(rawValue: result) }
        return pid
    }

    /// `waitpid(WNOHANG)`: true once `pid` has exited (and is reaped) or is no child of ours.
    public static func reap(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        return result == pid || (result == -1 && errno == ECHILD)
    }

    /// This process's environment (`environ`), as a dictionary.
    public static var currentEnvironment: [String: String] {
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
