import Foundation
import TemplateStore
import Testing

/// `fpmod card validity` and `card list` word for word: the console reads and describes a card's
/// dates through the same library calls, so the CLI's texts are pinned here byte for byte.
@Suite struct CardDatesCLITests {
    @Test func theCardsDatesAreSaidAsBeforeToTheByte() throws {
        let cli = CLI()
        let config = try AccessCommandsCLITests.berlinConfig(cli)
        func run(_ arguments: [String]) throws -> CLI.Result { try cli.run(["--config", config] + arguments) }
        try TemplateStore(databasePath: cli.directory + "/store.db", keyPath: cli.directory + "/key").addUser(name: "alice")
        #expect(try run(["card", "add", "alice", "26:1:7", "--label", "visitor"]).status == 0)

        let dated = try run(["card", "validity", "alice", "visitor", "--valid-from", "2099-12-24", "--valid-until", "2099-12-26 18:00"])
        #expect(dated.status == 0 && dated.stderr.isEmpty)
        #expect(dated.stdout == "alice's card visitor: valid from 2099-12-24 00:00 Europe/Berlin, valid until 2099-12-26 18:00 Europe/Berlin.\n")
        #expect(try run(["card", "list"]).stdout
                == "alice  visitor  Wiegand card  valid from 2099-12-24 00:00 Europe/Berlin, valid until 2099-12-26 18:00 Europe/Berlin (not yet valid)\n")

        let untilOnly = try run(["card", "validity", "alice", "visitor", "--valid-until", "2020-03-28"])
        #expect(untilOnly.stdout == "alice's card visitor: valid until 2020-03-29 00:00 Europe/Berlin.\n", "through the end of that day")
        #expect(try run(["card", "list"]).stdout == "alice  visitor  Wiegand card  valid until 2020-03-29 00:00 Europe/Berlin (expired)\n")

        let cleared = try run(["card", "validity", "alice", "visitor"])
        #expect(cleared.stdout == "alice's card visitor: no dates of its own.\n")
        #expect(try run(["card", "list"]).stdout == "alice  visitor  Wiegand card\n")

        let audit = try TemplateStore(databasePath: cli.directory + "/store.db", keyPath: cli.directory + "/key").auditEntries(limit: 10)
            .filter { $0.event == "card-validity" }.compactMap(\.detail)
        #expect(audit.contains("card visitor: valid from 2099-12-24 00:00 Europe/Berlin, valid until 2099-12-26 18:00 Europe/Berlin by fpmod card validity"))
        #expect(audit.contains("card visitor: no dates of its own by fpmod card validity"))
    }

    @Test func aMomentNotWrittenAsTheDoorReadsOneIsRefusedWithHowToWriteIt() throws {
        let cli = CLI()
        let config = try AccessCommandsCLITests.berlinConfig(cli)
        try TemplateStore(databasePath: cli.directory + "/store.db", keyPath: cli.directory + "/key").addUser(name: "alice")
        #expect(try cli.run(["--config", config, "card", "add", "alice", "26:1:7", "--label", "visitor"]).status == 0)
        let refused = try cli.run(["--config", config, "card", "validity", "alice", "visitor", "--valid-from", "next week"])
        #expect(refused.status == 64 && refused.stdout.isEmpty)
        #expect(refused.stderr.contains(#"--valid-from "next week" is not a day or time; write YYYY-MM-DD or 'YYYY-MM-DD HH:MM' on the door's clock (Europe/Berlin)."#),
                "\(refused.stderr)")
        let skipped = try cli.run(["--config", config, "card", "validity", "alice", "visitor", "--valid-from", "2026-03-29 02:30"])
        #expect(skipped.stdout == "alice's card visitor: valid from 2026-03-29 03:00 Europe/Berlin.\n", "a minute the clocks skip starts when they land")
    }
}
