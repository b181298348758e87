import Foundation
import Testing

/// Issue 21, item 4: a store named on the command line (or FPMOD_STORE, or a config's
/// `store.database` alone) has its key beside it, never the installed /etc/fpmod/store.key or
/// the user's default; and `--sim` makes nothing in /etc/fpmod or /var/lib/fpmod (its default
/// store is the personal one, its module's flash beside that). HOME and the XDG directories
/// point into the test's scratch directory.
@Suite(.serialized) struct StoreDefaultsTests {
    /// A CLI whose store is named by nothing but what each test gives, with a scratch home.
    private func scratchCLI() -> CLI {
        let cli = CLI()
        cli.environment["FPMOD_STORE"] = nil
        cli.environment["FPMOD_STORE_KEY"] = nil
        cli.environment["HOME"] = cli.directory + "/home"
        cli.environment["XDG_DATA_HOME"] = cli.directory + "/home/data"
        cli.environment["XDG_CONFIG_HOME"] = cli.directory + "/home/config"
        cli.environment["XDG_STATE_HOME"] = cli.directory + "/home/state"
        return cli
    }

    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    @Test func aStoreOnTheCommandLineGetsItsKeyBesideIt() throws {
        let cli = scratchCLI()
        let installedKeyBefore = exists("/etc/fpmod/store.key")
        let store = cli.directory + "/door.db"
        let enroll = try cli.sim(["--store", store, "enroll", "alice"])
        #expect(enroll.status == 0, "\(enroll.stderr)")
        #expect(exists(store + ".key"), "the key sits beside the store")
        #expect(!exists(cli.directory + "/home/config/fpmod/store.key"), "not the user's default key")
        #expect(exists("/etc/fpmod/store.key") == installedKeyBefore, "never the installed key")
        // The same store through FPMOD_STORE finds the same key, and the key opens it.
        let list = try cli.run(["list"], environment: ["FPMOD_STORE": store])
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains("alice"))
        let explicit = try cli.run(["--store", store, "--key", store + ".key", "list"])
        #expect(explicit.status == 0 && explicit.stdout.contains("alice"), "\(explicit.stderr)")
        // --key still says otherwise: another key does not open this store.
        let other = try cli.run(["--store", store, "--key", cli.directory + "/other.key", "list"])
        #expect(other.status != 0)
        #expect(other.stderr.contains(store), "\(other.stderr)")
    }

    @Test func aConfigsStoreWithoutAKeyGetsItsKeyBesideIt() throws {
        let cli = scratchCLI()
        let store = cli.directory + "/configured.db"
        let config = cli.directory + "/config.json"
        try Data(#"{"board": "usb-serial", "store": {"database": "\#(store)"}}"#.utf8).write(to: URL(fileURLWithPath: config))
        let enroll = try cli.sim(["--config", config, "enroll", "bob"])
        #expect(enroll.status == 0, "\(enroll.stderr)")
        #expect(exists(store + ".key"))
        #expect(!exists(cli.directory + "/home/config/fpmod/store.key"))
    }

    @Test func theSimulatorWithoutANamedStoreUsesThePersonalOneEvenForRoot() throws {
        let cli = scratchCLI()
        let before = (etc: exists("/etc/fpmod"), varLib: exists("/var/lib/fpmod"))
        let enroll = try cli.sim(["enroll", "alice"])
        #expect(enroll.status == 0, "\(enroll.stderr)")
        let store = cli.directory + "/home/data/fpmod/fpmod.db"
        #expect(exists(store), "the personal store, whoever runs it")
        #expect(exists(cli.directory + "/home/config/fpmod/store.key"))
        #expect(exists(cli.directory + "/home/data/fpmod/sim-r307.state"), "the flash beside the store")
        #expect(exists("/etc/fpmod") == before.etc && exists("/var/lib/fpmod") == before.varLib,
                "nothing simulated in the installed service's directories")
        let identify = try cli.sim(["identify"], finger: "alice-right-index")
        #expect(identify.status == 0, "\(identify.stderr)")
        #expect(identify.stdout.contains("alice"))
    }

    @Test func theSimulatorRefusesAStoreOrKeyOfTheInstalledService() throws {
        let cli = scratchCLI()
        let before = (etc: exists("/etc/fpmod"), varLib: exists("/var/lib/fpmod"))
        let trial = "/var/lib/fpmod/trial-\(UUID().uuidString).db"
        let named = try cli.sim(["--store", trial, "enroll", "alice"])
        #expect(named.status == 78, "\(named.stderr)")
        #expect(named.stderr.contains("--sim would use \(trial)"), "\(named.stderr)")
        #expect(named.stderr.contains("--store ~/fpmod-trial.db"))
        let key = try cli.sim(["--store", cli.directory + "/t.db", "--key", "/etc/fpmod/store.key", "info"])
        #expect(key.status == 78, "\(key.stderr)")
        // The same for the service on the simulator, its store from the config.
        let config = cli.directory + "/config.json"
        try Data(#"{"board": "gpio-vm", "store": {"database": "/var/lib/fpmod/fpmod.db", "key": "/etc/fpmod/store.key"}}"#.utf8)
            .write(to: URL(fileURLWithPath: config))
        // In the background: a service that wrongly started must not hang the test.
        let run = try LoggedProcess(cli, arguments: ["--config", config, "run", "--sim", "--sim-gpio"])
        defer { if run.isRunning { run.process.terminate(); run.waitUntilExit() } }
        try waitFor("fpmod run to refuse") { !run.isRunning }
        #expect(run.process.terminationStatus == 78, "\(run.log)")
        #expect(run.log.contains("--sim would use /var/lib/fpmod/fpmod.db"), "\(run.log)")
        #expect(exists("/etc/fpmod") == before.etc && exists("/var/lib/fpmod") == before.varLib)
        #expect(!exists(cli.directory + "/t.db"))
    }

    @Test func theHelpSaysWhereTheKeyAndTheFlashGo() throws {
        let help = try CLI().run(["--help"])
        // The help is wrapped to the terminal: read it as one line.
        let text = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("its key is then PATH.key beside it unless --key names another"), "\(help.stdout)")
        #expect(text.contains("never one in /etc/fpmod or /var/lib/fpmod; a simulated module's flash is kept beside it"))
    }
}
