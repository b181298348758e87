import Glibc

/// Path operations that are one system call each (what `FileDescriptor` does once a file is
/// open lives there). Modes are exact: a `chmod(2)` follows where the umask would interfere.
public enum FileSystem {
    /// `stat(2)`: true when something exists at `path` (a symlink counts by its target).
    /// Any failure reads as "not there", which is what callers ask.
    public static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// `stat(2)`: what is at `path`, following symlinks.
    public static func status(_ path: String) throws(Errno) -> FileStatus {
        var info = stat()
        _ = try retryingOnInterrupt { stat(path, &info) }
        return FileStatus(info)
    }

    /// `access(2)`: whether this process's real ids may use `path` as `mode` says (`R_OK`,
    /// `W_OK`, `X_OK`, or'ed).
    public static func isAccessible(_ path: String, _ mode: Int32) -> Bool {
        access(path, mode) == 0
    }

    /// `mkdir(2)` and then `chmod(2)`, so the directory's mode is `mode` whatever the umask.
    /// Throws `Errno.fileExists` when something is already there (its mode is left alone).
    public static func makeDirectory(_ path: String, mode: mode_t) throws(Errno) {
        _ = try retryingOnInterrupt { mkdir(path, mode) }
        try changeMode(path, mode)
    }

    /// `chmod(2)`.
    public static func changeMode(_ path: String, _ mode: mode_t) throws(Errno) {
        _ = try retryingOnInterrupt { chmod(path, mode) }
    }

    /// `chown(2)`: gives `path` (following symlinks) to `user` and `group`.
    public static func changeOwner(_ path: String, user: uid_t, group: gid_t) throws(Errno) {
        _ = try retryingOnInterrupt { chown(path, user, group) }
    }

    /// `open(2)` with `O_CREAT` and `close(2)`: an empty file of mode `mode` (less what the
    /// umask takes away) unless one exists; an existing file is left as it is.
    public static func createFile(_ path: String, mode: mode_t) throws(Errno) {
        let fd = try FileDescriptor.open(path, O_CREAT | O_WRONLY | O_CLOEXEC, mode: mode)
        try fd.close()
    }

    /// `open(2)`, `read(2)` to the end, `close(2)`: the whole file, or nil when nothing is at
    /// `path` (`ENOENT`). Every other failure throws.
    public static func contents(of path: String) throws(Errno) -> [UInt8]? {
        let fd: FileDescriptor
        do { fd = try FileDescriptor.open(path, O_RDONLY | O_CLOEXEC) } catch .noSuchFile { return nil }
        defer { try? fd.close() }  // read-only: nothing is lost when close fails
        var bytes: [UInt8] = []
        while true {
            let chunk = try fd.read(maxCount: 4096)
            if chunk.isEmpty { return bytes }
            bytes += chunk
        }
    }
}

/// What `stat(2)` says about a file, the fields callers use.
public struct FileStatus: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        case regular, directory, symbolicLink, characterDevice, blockDevice, fifo, socket, unknown
    }

    public var kind: Kind
    /// The permission bits (`st_mode & 0o7777`).
    public var permissions: mode_t
    public var size: Int64
    public var ownerID: uid_t
    public var groupID: gid_t

    public init(kind: Kind, permissions: mode_t, size: Int64, ownerID: uid_t, groupID: gid_t = 0) {
        self.kind = kind
        self.permissions = permissions
        self.size = size
        self.ownerID = ownerID
        self.groupID = groupID
    }

    init(_ info: stat) {
        kind = switch info.st_mode & S_IFMT {
        case S_IFREG: .regular
        case S_IFDIR: .directory
        case S_IFLNK: .symbolicLink
        case S_IFCHR: .characterDevice
        case S_IFBLK: .blockDevice
        case S_IFIFO: .fifo
        case S_IFSOCK: .socket
        default: .unknown
        }
        permissions = info.st_mode & 0o7777
        size = Int64(info.st_size)
        ownerID = info.st_uid
        groupID = info.st_gid
    }
}
