import Foundation
import Testing

/// `fpmod setup` end to end with --sim: the config it writes passes `config check`, and the
/// store holds an enrolled admin with a PIN.
@Suite(.serialized) struct SetupCommandTests {
    private func admins(_ cli: CLI) throws -> [[String: Any]] {
        let users = try cli.run(["list", "--json"]).json?["users"] as? [[String: Any]] ?? []
        return users.filter { $0["role"] as? String == "admin" }
    }

    @Test func defaultsPairEnrollAnAdminWithAPINAndWriteAValidConfig() throws {
        let cli = CLI()
        let config = cli.directory + "/config.json"
        let result = try cli.sim(["--config", config, "setup", "--defaults"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("✔ Paired the r30x module"))
        #expect(result.stdout.contains("fpmod --sim --config \(config) run --sim-gpio"))
        #expect(try cli.run(["config", "check", config]).status == 0)
        let admins = try admins(cli)
        #expect(admins.count == 1)
        #expect(admins.first?["name"] as? String == "admin")
        #expect(admins.first?["hasPIN"] as? Bool == true)
        #expect((admins.first?["fingers"] as? [[String: Any]])?.count == 1)
        // A made-up PIN is shown once, as six digits.
        #expect(result.stdout.range(of: #"PIN is [0-9]{6} "#, options: .regularExpression) != nil)
        // The simulated module stays paired and enrolled for the next --sim command.
        let identify = try cli.sim(["identify", "--json"], finger: "admin-right-index")
        #expect(identify.status == 0)
        #expect(identify.json?["user"] as? String == "admin")
    }

    @Test func pipedAnswersChooseTheNameFingerPINAndBoard() throws {
        let cli = CLI()
        let config = cli.directory + "/config.json"
        let answers = "carol\nleft-thumb\n4826\n4826\nrpi4\n\ny\n"
        let result = try cli.sim(["--config", config, "setup"], stdin: answers)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(!result.stdout.contains("4826"), "the PIN must not be echoed")
        let admins = try admins(cli)
        #expect(admins.first?["name"] as? String == "carol")
        #expect(admins.first?["hasPIN"] as? Bool == true)
        #expect((admins.first?["fingers"] as? [[String: Any]])?.first?["label"] as? String == "left-thumb")
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: config))) as? [String: Any]
        #expect(written?["board"] as? String == "rpi4")
        #expect(try cli.run(["config", "check", config]).status == 0)
    }

    @Test func mismatchedPINsAreAskedAgain() throws {
        let cli = CLI()
        let result = try cli.sim(["--config", cli.directory + "/config.json", "setup"],
                                 stdin: "dave\n\n4826\n4862\n7391\n7391\n\n\ny\n")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("The two PINs differ"))
        #expect(result.stdout.contains("✔ Set dave's PIN"))
        #expect(try admins(cli).first?["hasPIN"] as? Bool == true)
    }

    @Test func aSecondRunKeepsThePairingTheAdminAndAnExistingConfig() throws {
        let cli = CLI()
        let config = cli.directory + "/config.json"
        #expect(try cli.sim(["--config", config, "setup", "--defaults"]).status == 0)
        try Data("{\"board\": \"rpi5\"}\n".utf8).write(to: URL(fileURLWithPath: config))
        let again = try cli.sim(["--config", config, "setup", "--defaults"])
        #expect(again.status == 0, "stderr: \(again.stderr)")
        #expect(again.stdout.contains("Already paired"))
        #expect(again.stdout.contains("Administrators already enrolled: admin"))
        #expect(again.stdout.contains("Kept the existing"))
        #expect(try String(contentsOfFile: config, encoding: .utf8) == "{\"board\": \"rpi5\"}\n")
        #expect(try admins(cli).count == 1)
    }
}
