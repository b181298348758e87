import Glibc

/// The calling process as the kernel sees it. The id calls cannot fail (POSIX says so), so
/// they are plain properties; the rest throw a typed `Errno`.
public enum CurrentProcess {
    /// `getpid(2)`.
    public static var id: pid_t { getpid() }

    /// `geteuid(2)`: the user whose permissions apply (root under sudo), which decides the
    /// default store, socket and config paths.
    public static var effectiveUserID: uid_t { geteuid() }

    /// `getegid(2)`.
    public static var effectiveGroupID: gid_t { getegid() }

    /// `getgroups(2)`: the supplementary groups of this process (those of the login session,
    /// which a `usermod -aG` does not change until the next login).
    public static func supplementaryGroupIDs() throws(Errno) -> [gid_t] {
        // The list can grow between the two calls; the second then fails with EINVAL: ask again.
        while true {
            let count = try retryingOnInterrupt { getgroups(0, nil) }
            var ids = [gid_t](repeating: 0, count: Int(count))
            do throws(Errno) {
                let got = try retryingOnInterrupt { getgroups(count, &ids) }
                return Array(ids.prefix(Int(got)))
            } catch .invalidArgument {
                continue
            }
        }
    }

    /// `kill(2)` of this process: for a test hook that must die as a power cut would, at once
    /// and without cleanup (`SIGKILL`).
    public static func send(_ signal: Int32) throws(Errno) {
        _ = try retryingOnInterrupt { kill(getpid(), signal) }
    }
}
