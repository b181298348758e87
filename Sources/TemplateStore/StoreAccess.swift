import Glibc

extension TemplateStore {
    /// Why this process cannot write the store at `databasePath` ("the file cannot be written by
    /// this user"…), or nil when it can.
    public static func readOnlyReason(databasePath: String) -> String? {
        StoreAccess.readOnly(databasePath: databasePath)?.detail
    }
}

/// Whether this process can write a store: the database file, and its folder (SQLite's WAL
/// and shared-memory files are created beside it). Root passes permission checks; a read-only
/// file system stops even root.
enum StoreAccess {
    struct ReadOnly: Equatable {
        /// What is read-only, in words: "the file's permissions", "its folder /x is read-only"…
        var detail: String
        /// True on a read-only mount (no user can write), false for permissions.
        var fileSystem: Bool
    }

    /// Nil when the store can be written; else why not.
    static func readOnly(databasePath: String) -> ReadOnly? {
        let folder = PrivateFiles.parent(of: databasePath)
        for (path, what) in [(databasePath, "the file"), (folder, "its folder \(folder)")] where access(path, W_OK) != 0 {
            let error = errno
            if error == EROFS { return ReadOnly(detail: "it is on a read-only file system", fileSystem: true) }
            if error == EACCES || error == EPERM {
                return ReadOnly(detail: "\(what) cannot be written by this user", fileSystem: false)
            }
        }
        return nil
    }

    /// True when the write-ahead log holds changes not yet in the database file: a reader must
    /// then go through SQLite's shared-memory index instead of reading the file as it is.
    static func hasWALContent(databasePath: String) -> Bool {
        var info = stat()
        return stat(databasePath + "-wal", &info) == 0 && info.st_size > 0
    }
}
