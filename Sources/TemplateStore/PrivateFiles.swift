import Posix

/// Creates directories 0700 and files 0600, so templates and keys are never readable by others,
/// whatever the process umask is. The system calls are Posix's; this says which modes the store
/// wants and turns an `Errno` into a `StoreError` naming the path.
enum PrivateFiles {
    static func exists(_ path: String) -> Bool { FileSystem.exists(path) }

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
        do throws(Errno) {
            try FileSystem.makeDirectory(path, mode: 0o700)
        } catch .fileExists {
            // Made by someone else meanwhile: theirs, mode included.
        } catch {
            throw StoreError.fileSystem(path: path, detail: "mkdir failed: \(error)")
        }
    }

    /// Creates an empty file with mode 0600 unless it exists already.
    ///
    /// Made by root in a directory someone else owns, the file is given to that directory's
    /// owner: `sudo fpmod setup` creates the store in the service's /var/lib/fpmod, and a
    /// database owned by root would be unreadable for the service (User=fpmod). SQLite does the
    /// same for the -wal and -shm files it makes as root beside a database owned by another user.
    static func createFile(_ path: String) throws {
        let existed = exists(path)
        do throws(Errno) { try FileSystem.createFile(path, mode: 0o600) } catch {
            throw StoreError.fileSystem(path: path, detail: "open failed: \(error)")
        }
        if existed || CurrentProcess.effectiveUserID != 0 { return }
        do throws(Errno) {
            let directory = try FileSystem.status(parent(of: path))
            if directory.ownerID != 0 {
                try FileSystem.changeOwner(path, user: directory.ownerID, group: directory.groupID)
            }
        } catch {
            throw StoreError.fileSystem(path: path, detail: "giving it to the owner of its directory failed: \(error)")
        }
    }

    /// The whole file, or nil when it does not exist.
    static func read(_ path: String) throws -> [UInt8]? {
        do throws(Errno) { return try FileSystem.contents(of: path) } catch {
            throw StoreError.fileSystem(path: path, detail: "reading it failed: \(error)")
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
