import Foundation

extension LockConfig {
    /// Hooks whose program cannot be run here: `hooks.onUnlock: /usr/local/bin/notify is not an
    /// executable file …`. A bare name is looked up in `searchPath` (the PATH the service gets).
    /// A machine check, like the GPIO chip's: `fpmod config check` reports it, so a hook that
    /// would only fail at the first unlock is found at install time.
    public func hookProblems(searchPath: String = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin") -> [String] {
        let hooks: [(String, [String]?)] = [("onUnlock", self.hooks.onUnlock), ("onDeny", self.hooks.onDeny),
                                             ("onLockout", self.hooks.onLockout), ("onAlarm", self.hooks.onAlarm),
                                             ("onDuress", self.hooks.onDuress)]
        var problems: [String] = []
        for (name, argv) in hooks {
            guard let program = argv?.first else { continue }
            let manager = FileManager.default
            if program.contains("/") {
                var isDirectory: ObjCBool = false
                if !manager.fileExists(atPath: program, isDirectory: &isDirectory) {
                    problems.append("hooks.\(name): \(program) does not exist; give the full path of the program to run")
                } else if isDirectory.boolValue || !manager.isExecutableFile(atPath: program) {
                    problems.append("hooks.\(name): \(program) is not an executable file; check the path, or `chmod +x \(program)`")
                }
            } else {
                let found = searchPath.split(separator: ":").contains { directory in
                    var isDirectory: ObjCBool = false
                    let candidate = "\(directory)/\(program)"
                    return manager.fileExists(atPath: candidate, isDirectory: &isDirectory) && !isDirectory.boolValue
                        && manager.isExecutableFile(atPath: candidate)
                }
                if !found {
                    problems.append("hooks.\(name): no program '\(program)' in \(searchPath); give its full path")
                }
            }
        }
        return problems
    }
}
