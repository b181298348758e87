import Foundation
import Testing

/// Issue 25 through the binary: schedules, holidays and a user's rules set from the command
/// line (a bad text names its column and writes nothing), `fpmod list` marking the state,
/// `fpmod access explain` answering from the same rules, `fpmod log --who` as text, JSON and
/// CSV, and `fpmod config check` naming where a problem is.
@Suite struct AccessCommandsCLITests {
    static func berlinConfig(_ cli: CLI, extra: String = "") throws -> String {
        let path = cli.directory + "/config.json"
        try #"{"access": {"timeZone": "Europe/Berlin", "door": "front"\#(extra)}}"#.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A holiday's options refused in their own words (`HolidayRequest` reads them; the fleet
    /// console reads its form through the same type), each before the store is opened.
    @Test(arguments: [
        (["--date", "2026-02-30", "--closed"], #"--date "2026-02-30" is not a date; write YYYY-MM-DD (a day that exists), e.g. 2026-12-24."#),
        (["--date", "2026-12-25", "--from", "2026-12-24", "--until", "2026-12-26", "--closed"],
         "--date is one day; --from and --until a range: give one or the other."),
        (["--from", "2026-12-24", "--closed"], "A range needs both --from and --until."),
        (["--closed"], "Say which days: --date YYYY-MM-DD for one day, or --from YYYY-MM-DD --until YYYY-MM-DD."),
        (["--from", "2026-12-26", "--until", "2026-12-24", "--closed"],
         "The holiday's days: its last day 2026-12-24 is before its first 2026-12-26; give the days in order (--from, --until)."),
        (["--date", "2026-12-25", "--closed", "--hours", "daily 10:00-14:00"],
         "Say what the door does that day: --closed (nobody with a schedule comes in) or --hours 'daily 10:00-14:00' (those hours instead of their schedules)."),
        (["--date", "2026-12-25", "--hours", "daily 10:00-25:00"],
         #"--hours, column 13: "25:00" is not a time of day; write HH:MM from 00:00 to 23:59 (or 24:00 as an end). Nothing was changed."#),
    ])
    func aHolidaysOptionsAreRefusedInTheirOwnWords(options: [String], message: String) throws {
        let cli = CLI()
        let refused = try cli.run(["holiday", "add", "christmas"] + options)
        #expect(refused.status == 64 && refused.stderr == "Error: " + message + "\n", "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: cli.directory + "/store.db"), "refused before the store is opened")
    }

    @Test func schedulesHolidaysAndAUsersRulesFromTheCommandLine() throws {
        let cli = CLI()
        let config = try Self.berlinConfig(cli)
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        func run(_ arguments: [String]) throws -> CLI.Result { try cli.run(["--config", config] + arguments) }

        #expect(try run(["schedule", "add", "cleaning", "tue 08:00-12:00"]).status == 0)
        let before = try cli.auditEvents().count
        let typo = try run(["schedule", "add", "night", "mon 22:00-02:00"])
        #expect(typo.status == 64 && typo.stderr.contains("column 5") && typo.stderr.contains("22:00-02:00+1"), "\(typo.stderr)")
        let overlap = try run(["schedule", "add", "office", "mon-fri 07:00-12:00; wed 11:00-13:00"])
        #expect(overlap.status == 64 && overlap.stderr.contains("column 22") && overlap.stderr.contains("overlaps"), "\(overlap.stderr)")
        #expect(try run(["user", "set", "alice", "--schedule", "nope"]).status == 64)
        #expect(try run(["user", "set", "alice", "--valid-from", "2026-12-10", "--valid-until", "2026-12-01"]).status == 64)
        #expect(try cli.auditEvents().count == before, "nothing written by a refused change")
        #expect((try run(["schedule", "list", "--json"]).json?["schedules"] as? [[String: Any]])?.map { $0["name"] as? String } == ["cleaning"])

        let set = try run(["user", "set", "alice", "--schedule", "cleaning", "--valid-until", "2026-12-06", "--uses", "5"])
        #expect(set.status == 0 && set.stdout.contains("valid until 2026-12-07 00:00 Europe/Berlin"), "\(set.stdout)\(set.stderr)")
        let listed = try run(["list"]).stdout
        #expect(listed.contains("access: schedule \"cleaning\"") && listed.contains("5 uses left"), "\(listed)")

        // Tuesdays 2026-12-01 (in the schedule's hours, before the end of validity) and later.
        let inside = try run(["access", "explain", "alice", "--at", "2026-12-01 09:00"])
        #expect(inside.status == 0 && inside.stdout.contains("would be let in, by schedule \"cleaning\""), "\(inside.stdout)")
        let after = try run(["access", "explain", "alice", "--at", "2026-12-01 13:00", "--json"])
        #expect(after.status == 1)
        #expect((after.json?["denial"] as? [String: Any])?["code"] as? String == "outside-schedule", "\(after.stdout)")
        #expect(try run(["access", "explain", "alice", "--at", "2026-03-29 02:30"]).status == 64, "a time the clocks skip")
        #expect(try run(["access", "explain", "alice", "--door", "back"]).status == 64)

        #expect(try run(["holiday", "add", "between", "--date", "2026-12-01", "--closed"]).status == 0)
        #expect(try run(["holiday", "add", "backwards", "--from", "2026-12-26", "--until", "2026-12-24", "--closed"]).status == 64)
        #expect(try run(["holiday", "add", "undecided", "--date", "2026-12-24"]).status == 64, "closed or hours: say which")
        let closed = try run(["access", "explain", "alice", "--at", "2026-12-01 09:00"])
        #expect(closed.status == 1 && closed.stdout.contains("closed for the holiday \"between\""), "\(closed.stdout)")
        #expect(try run(["holiday", "list"]).stdout.contains("between  2026-12-01, closed"))
        #expect(try run(["holiday", "delete", "between"]).status == 0)

        #expect(try run(["schedule", "delete", "cleaning"]).status == 1, "still assigned")
        #expect(try run(["user", "set", "alice", "--valid-until", "2026-01-01"]).status == 0)
        let expired = try run(["list", "--json"]).json?["users"] as? [[String: Any]]
        #expect(expired?.first?["standing"] as? String == "expired", "\(String(describing: expired))")
        #expect(try run(["list"]).stdout.contains("EXPIRED"))
        #expect(try run(["card", "add", "alice", "26:1:7", "--label", "visitor"]).status == 0)
        #expect(try run(["card", "validity", "alice", "visitor", "--valid-from", "2026-12-10", "--valid-until", "2026-12-01"]).status == 64)
        let badge = try run(["card", "validity", "alice", "visitor", "--valid-until", "2026-01-01"])
        #expect(badge.status == 0 && badge.stdout.contains("valid until 2026-01-02 00:00 Europe/Berlin"), "\(badge.stdout)\(badge.stderr)")
        #expect(try run(["card", "list"]).stdout.contains("(expired)"))
        let events = try cli.auditEvents()
        for event in ["schedule-added", "access-changed", "holiday-added", "holiday-deleted", "card-validity"] { #expect(events.contains(event), "\(event): \(events)") }
    }

    /// The service writes one `granted` row per person let in; rows as it writes them are put
    /// in the store's audit table here, and the report reads them on the door's clock.
    @Test func whoCameInOnTuesday() throws {
        let cli = CLI()
        let config = try Self.berlinConfig(cli)
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        // Tuesday 2026-12-08 09:30 Berlin is 08:30 UTC; Monday 23:30 Berlin is 22:30 UTC.
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            rows = [(1796718600.0, "granted", "alice", "fingerprint at the entry reader"),
                    (1796682600.0, "granted", "bob", "card at the entry reader"),
                    (1796722200.0, "granted", "x,\\"y", "pin at the exit reader"),
                    (1796718601.0, "match", "alice", "slot 0")]
            db.executemany("INSERT INTO audit (time, event, user, detail) VALUES (?, ?, ?, ?)", rows)
            db.commit()
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", script, cli.directory + "/store.db"]
        try python.run()
        python.waitUntilExit()
        #expect(python.terminationStatus == 0)
        func run(_ arguments: [String]) throws -> CLI.Result { try cli.run(["--config", config] + arguments) }

        let text = try run(["log", "--who", "--since", "2026-12-08", "--until", "2026-12-08"])
        #expect(text.status == 0 && text.stdout.contains("2026-12-08 09:30  alice  fingerprint at the entry reader"), "\(text.stdout)\(text.stderr)")
        #expect(!text.stdout.contains("bob"), "Monday night is not Tuesday")
        let csv = try run(["log", "--who", "--since", "2026-12-08", "--until", "2026-12-08", "--csv"]).stdout
        #expect(csv.split(separator: "\r\n", omittingEmptySubsequences: false).first == "time,utc,time_zone,door,user,side,how", "\(csv)")
        #expect(csv.contains("2026-12-08 10:30,2026-12-08T09:30:00Z,Europe/Berlin,front,\"x,\"\"y\",exit,pin at the exit reader"), "\(csv)")
        let json = try run(["log", "--who", "--since", "2026-12-07", "--user", "bob", "--json"]).json
        #expect((json?["entries"] as? [[String: Any]])?.map { $0["user"] as? String } == ["bob"])
        #expect(try run(["log", "--who", "--since", "someday"]).status == 64)
        #expect(try run(["log", "--who", "--csv", "--json"]).status == 64)
        #expect(try run(["log", "--who", "--door", "back"]).status == 64)
    }

    @Test func configCheckSaysWhereAndChecksTheStoresRules() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"]).status == 0)
        let path = cli.directory + "/bad.json"
        try "{\n  \"board\": \"gpio-vm\",\n  \"access\": {\"timeZone\": \"Europe/Berln\", \"passageSchedule\": \"opening\"}\n}\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        let check = try cli.run(["config", "check", path])
        #expect(check.status == 78)
        #expect(check.stdout.contains("access.timeZone: \"Europe/Berln\" is not a time zone") && check.stdout.contains("did you mean \"Europe/Berlin\"")
                && check.stdout.contains("(line 3, column 26)"), "\(check.stdout)")
        #expect(check.stdout.contains("access.passageSchedule: \"opening\" is not a schedule in the store"), "\(check.stdout)")
    }
}
