import Foundation
import Testing
@testable import TemplateStore

/// What a store-creating operation that failed leaves behind: nothing, when the store it made
/// holds nothing; everything, when it kept something to repair or was there before.
@Suite struct StoreFootprintTests {
    @Test func aNewEmptyStoreIsRemovedWithItsKeyCompanionsAndDirectories() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let companion = directory.path + "/data/sim-r307.state"
        let footprint = StoreFootprint(database: directory.database, key: directory.key, companions: [companion])
        _ = try directory.openStore()
        _ = FileManager.default.createFile(atPath: companion, contents: Data([1]))
        footprint.undoIfNothingKept()
        for path in [directory.database, directory.key, companion, directory.path + "/data", directory.path + "/config"] {
            #expect(!FileManager.default.fileExists(atPath: path), "\(path) was left behind")
        }
    }

    @Test func aNewStoreThatKeptAUserStays() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let footprint = StoreFootprint(database: directory.database, key: directory.key)
        let store = try directory.openStore()
        try store.addUser(name: "alice")
        footprint.undoIfNothingKept()
        #expect(FileManager.default.fileExists(atPath: directory.database))
        #expect(FileManager.default.fileExists(atPath: directory.key))
    }

    @Test func aStoreThatWasThereBeforeIsNeverTouched() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        _ = try directory.openStore()
        let footprint = StoreFootprint(database: directory.database, key: directory.key)
        footprint.undoIfNothingKept()
        #expect(FileManager.default.fileExists(atPath: directory.database))
        #expect(FileManager.default.fileExists(atPath: directory.key))
    }

    @Test func anUnrelatedFileInANewDirectoryKeepsTheDirectory() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let footprint = StoreFootprint(database: directory.database, key: directory.key)
        _ = try directory.openStore()
        _ = FileManager.default.createFile(atPath: directory.path + "/data/notes.txt", contents: Data("mine".utf8))
        footprint.undoIfNothingKept()
        #expect(!FileManager.default.fileExists(atPath: directory.database))
        #expect(FileManager.default.fileExists(atPath: directory.path + "/data/notes.txt"), "rmdir removes only empty directories")
    }
}
