import Glibc
import Posix

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
    /// file (`AtomicFile`: temporary name, fsync, link). Returns false when `path` already
    /// existed (someone else won the race).
    static func createExclusively(_ path: String, bytes: [UInt8]) throws -> Bool {
        do { return try AtomicFile.createExclusively(path, with: bytes, mode: 0o600) } catch {
            throw StoreError.fileSystem(path: path, detail: "writing it failed: \(error)")
        }
    }
}
