import Foundation
import Glibc

/// What a store-creating command (enroll, restore, setup, pair) may leave behind if it fails:
/// noted before it runs, and removed afterwards when the command failed and the store it created
/// holds nothing (no user, finger, pairing or pending operation). A failed first enroll thus
/// leaves no key, database or directory; a failure that left something to repair keeps it all.
public struct StoreFootprint: Sendable {
    /// Files that did not exist before the command, in removal order.
    private let newFiles: [String]
    /// Directories that did not exist before the command, deepest first.
    private let newDirectories: [String]
    private let databasePath: String

    /// Notes what exists now of the store at `database` with its `key`, and of `companions`
    /// (files a command may create beside it, such as a simulated module's flash).
    public init(database: String, key: String, companions: [String] = []) {
        let paths = (database: database, key: key)
        databasePath = paths.database
        let manager = FileManager.default
        // SQLite's companions (WAL, shared memory, rollback journal) and the caller's.
        let candidates = [paths.database, paths.database + "-wal", paths.database + "-shm", paths.database + "-journal",
                          paths.key] + companions
        databaseIsNew = !manager.fileExists(atPath: paths.database)
        newFiles = candidates.filter { !manager.fileExists(atPath: $0) }
        var directories: [String] = []
        for file in [paths.database, paths.key] {
            var directory = (file as NSString).deletingLastPathComponent
            while !directory.isEmpty, directory != "/", !manager.fileExists(atPath: directory) {
                if !directories.contains(directory) { directories.append(directory) }
                directory = (directory as NSString).deletingLastPathComponent
            }
        }
        newDirectories = directories.sorted { $0.count > $1.count }
    }

    private let databaseIsNew: Bool

    /// After a failed command: removes what it created, if the new store holds nothing.
    public func undoIfNothingKept() {
        guard databaseIsNew else { return }
        let manager = FileManager.default
        if manager.fileExists(atPath: databasePath), !TemplateStore.holdsNothing(databasePath: databasePath) { return }
        for file in newFiles { try? manager.removeItem(atPath: file) }
        // rmdir(2) only removes an empty directory: anything else put there stays.
        for directory in newDirectories { rmdir(directory) }
    }
}
