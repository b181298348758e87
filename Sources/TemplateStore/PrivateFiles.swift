import Glibc

/// Creates directories 0700 and files 0600, so templates and keys are never readable by others,
/// whatever the process umask is.
enum PrivateFiles {
    static func errnoText() -> String { String(cString: strerror(errno)) }

    static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// The parent directory of `path` ("." for a bare name).
    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let parent = String(path[..<slash])
        return parent.isEmpty ? "/" : parent
    }

    /// `mkdir -p` where every directory this call creates gets mode 0700 (existing ones are left alone).
    static func makeDirectories(_ path: String) throws {
        if path.isEmpty || path == "/" || path == "." || exists(path) { return }
        try makeDirectories(parent(of: path))
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw StoreError.fileSystem(path: path, detail: "mkdir failed: \(errnoText())")
        }
        // mkdir applies the umask; chmod makes the mode exact.
        _ = chmod(path, 0o700)
    }

    /// Creates an empty file with mode 0600 unless it exists already.
    static func createFile(_ path: String) throws {
        let fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StoreError.fileSystem(path: path, detail: "open failed: \(errnoText())") }
        close(fd)
    }

    /// The whole file, or nil when it does not exist.
    static func read(_ path: String) throws -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            if errno == ENOENT { return nil }
            throw StoreError.fileSystem(path: path, detail: "open failed: \(errnoText())")
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 4096) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw StoreError.fileSystem(path: path, detail: "read failed: \(errnoText())") }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
        }
    }

    /// Writes `bytes` to a new file 0600 at `path`, atomically and without replacing an existing
    /// file: written to a temporary name, synced, then hard-linked into place. Returns false when
    /// `path` already existed (someone else won the race).
    static func createExclusively(_ path: String, bytes: [UInt8]) throws -> Bool {
        let temporary = "\(path).tmp-\(getpid())"
        unlink(temporary)
        let fd = open(temporary, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StoreError.fileSystem(path: temporary, detail: "open failed: \(errnoText())") }
        defer { unlink(temporary) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, bytes.count) }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced else {
            throw StoreError.fileSystem(path: temporary, detail: "write failed: \(errnoText())")
        }
        if link(temporary, path) != 0 {
            if errno == EEXIST { return false }
            throw StoreError.fileSystem(path: path, detail: "link failed: \(errnoText())")
        }
        let directory = open(parent(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 { fsync(directory); close(directory) }
        return true
    }
}
