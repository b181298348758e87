import Foundation
import Testing
import TemplateStore

/// Which store and key a command uses: a store named on its own never borrows the installed
/// key, and the installed service's directories are recognised however a path spells them.
@Suite struct StorePathChoiceTests {
    let installed = (database: "/var/lib/fpmod/fpmod.db", key: "/etc/fpmod/store.key")

    @Test func aStoreNamedAloneHasItsKeyBesideIt() {
        let named = StorePaths.choose(named: ("/tmp/x/door.db", nil), configured: (nil, nil), defaults: installed)
        #expect(named.database == "/tmp/x/door.db" && named.key == "/tmp/x/door.db.key")
        // The config's key belongs to the config's store, not to the one on the command line.
        let overConfig = StorePaths.choose(named: ("/tmp/x/door.db", nil), configured: ("/srv/a.db", "/srv/a.key"), defaults: installed)
        #expect(overConfig.key == "/tmp/x/door.db.key")
        let withKey = StorePaths.choose(named: ("/tmp/x/door.db", "/keys/door"), configured: (nil, nil), defaults: installed)
        #expect(withKey.key == "/keys/door")
    }

    @Test func theConfigsStoreKeepsItsKeyOrGetsOneBesideIt() {
        let both = StorePaths.choose(named: (nil, nil), configured: ("/srv/a.db", "/srv/a.key"), defaults: installed)
        #expect(both.database == "/srv/a.db" && both.key == "/srv/a.key")
        let alone = StorePaths.choose(named: (nil, nil), configured: ("/srv/a.db", nil), defaults: installed)
        #expect(alone.key == "/srv/a.db.key")
        let keyOnCommandLine = StorePaths.choose(named: (nil, "/k"), configured: ("/srv/a.db", "/srv/a.key"), defaults: installed)
        #expect(keyOnCommandLine.database == "/srv/a.db" && keyOnCommandLine.key == "/k")
    }

    @Test func withNothingNamedTheDefaultsStand() {
        let none = StorePaths.choose(named: (nil, nil), configured: (nil, nil), defaults: installed)
        #expect(none.database == installed.database && none.key == installed.key)
        let configKeyOnly = StorePaths.choose(named: (nil, nil), configured: (nil, "/srv/k"), defaults: installed)
        #expect(configKeyOnly.database == installed.database && configKeyOnly.key == "/srv/k")
    }

    @Test func productionDirectoriesAreRecognisedHoweverSpelled() {
        #expect(StorePaths.isInProductionDirectory("/var/lib/fpmod"))
        #expect(StorePaths.isInProductionDirectory("/var/lib/fpmod/sub/x.db"))
        #expect(StorePaths.isInProductionDirectory("/etc/fpmod/"))
        #expect(StorePaths.isInProductionDirectory("/var/lib/other/../fpmod/x"))
        #expect(StorePaths.isInProductionDirectory("/var//lib/./fpmod"))
        #expect(!StorePaths.isInProductionDirectory("/var/lib/fpmod-trial"))
        #expect(!StorePaths.isInProductionDirectory("/tmp/fpmod"))
        #expect(!StorePaths.isInProductionDirectory("relative/fpmod.db"))
    }

    @Test func aSymlinkIntoAProductionDirectoryCounts() throws {
        let scratch = NSTemporaryDirectory() + "fpmod-paths-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try FileManager.default.createSymbolicLink(atPath: scratch + "/etc", withDestinationPath: "/etc")
        #expect(StorePaths.isInProductionDirectory(scratch + "/etc/fpmod/x.state"))
        #expect(!StorePaths.isInProductionDirectory(scratch + "/etc/other/x.state"))
    }

    @Test func thePersonalStoreIsTheSameForRootAndEveryoneElse() {
        let root = StorePaths.personal(environment: ["HOME": "/root"])
        #expect(root.database == "/root/.local/share/fpmod/fpmod.db" && root.key == "/root/.config/fpmod/store.key")
        let xdg = StorePaths.personal(environment: ["HOME": "/home/ann", "XDG_DATA_HOME": "/d", "XDG_CONFIG_HOME": "/c"])
        #expect(xdg.database == "/d/fpmod/fpmod.db" && xdg.key == "/c/fpmod/store.key")
        #expect(StorePaths.defaults(euid: 1000, environment: ["HOME": "/home/ann"]) == StorePaths.personal(environment: ["HOME": "/home/ann"]))
    }
}
