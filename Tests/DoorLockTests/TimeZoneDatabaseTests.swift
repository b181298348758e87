@testable import DoorLock
import Foundation
import Testing

/// The door's zone by its IANA name from the machine's tzdata; a name that is not one is an
/// error with the name the admin probably meant, never a silent UTC.
struct TimeZoneDatabaseTests {
    @Test func aZoneLoadsByName() throws {
        let berlin = try TimeZoneDatabase.load("Europe/Berlin")
        #expect(berlin.name == "Europe/Berlin")
        // 2026-07-01 12:00 UTC is 14:00 CEST.
        #expect(berlin.localTime(atUTC: 1_782_907_200).description == "2026-07-01 14:00")
    }

    @Test func aMisspeltZoneSuggestsTheOneMeant() {
        #expect(throws: TimeZoneDatabase.LoadError.unknown("Europe/Berln", suggestion: "Europe/Berlin")) { try TimeZoneDatabase.load("Europe/Berln") }
        #expect(throws: TimeZoneDatabase.LoadError.unknown("europe/berlin", suggestion: "Europe/Berlin")) { try TimeZoneDatabase.load("europe/berlin") }
        #expect(throws: TimeZoneDatabase.LoadError.unknown("Berlin", suggestion: "Europe/Berlin")) { try TimeZoneDatabase.load("Berlin") }
    }

    @Test func aPathIsNoZoneName() {
        for name in ["../../etc/passwd", "/etc/localtime", "", "Europe//Berlin", "Europe/Berlin\n"] {
            #expect(throws: TimeZoneDatabase.LoadError.badName(name)) { try TimeZoneDatabase.load(name) }
        }
    }

    @Test func theConfigNamesItsZoneAndAWrongOneIsAProblem() throws {
        let config = try LockConfig.parse(Data(#"{"access": {"timeZone": "America/New_York", "door": "front"}}"#.utf8))
        #expect(config.doorTimeZone.name == "America/New_York")
        #expect(config.access.door == "front")
        let (_, problems) = LockConfig.parsePartially(Data(#"{"access": {"timeZone": "Europe/Berln", "colour": 1}}"#.utf8))
        #expect(problems.contains { $0.hasPrefix("access.timeZone: ") && $0.contains("did you mean \"Europe/Berlin\"") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("access.colour: unknown key") }, "\(problems)")
    }

    @Test func configCheckSaysWhereEachProblemIs() {
        let text = "{\n  \"board\": \"gpio-vm\",\n  \"access\": {\n    \"timeZone\": \"Mars/Olympus\"\n  }\n}\n"
        let check = LockConfigCheck(data: Data(text.utf8))
        let problem = check.problems.first { $0.hasPrefix("access.timeZone") }
        #expect(problem.flatMap(check.location(of:)) == "line 4, column 17", "\(check.problems)")
    }
}

/// The door's own access keys: the passage schedule's name, the readers inside, the two-person
/// rule and anti-passback (which needs an exit reader).
struct AccessConfigTests {
    @Test func theDoorsAccessKeysAreReadAndChecked() throws {
        let config = try LockConfig.parse(Data(#"""
            {"access": {"passageSchedule": "opening", "exitReaders": ["nfc", "keypad"]},
             "policy": {"twoPersonSeconds": 30, "antiPassback": "hard"}}
            """#.utf8))
        #expect(config.access.passageSchedule == "opening" && config.access.exitReaders == [.nfc, .keypad])
        #expect(config.policy.twoPersonSeconds == 30 && config.policy.antiPassback == .hard)
        let (_, problems) = LockConfig.parsePartially(Data(#"""
            {"access": {"passageSchedule": "opening hours", "exitReaders": ["nfc", "door"]},
             "policy": {"twoPersonSeconds": 3, "antiPassback": "strict"}}
            """#.utf8))
        for path in ["access.passageSchedule", "access.exitReaders[1]", "policy.twoPersonSeconds", "policy.antiPassback"] {
            #expect(problems.contains { $0.hasPrefix(path + ":") }, "\(path): \(problems)")
        }
        let (_, lonely) = LockConfig.parsePartially(Data(#"{"policy": {"antiPassback": "soft"}}"#.utf8))
        #expect(lonely.contains { $0.hasPrefix("policy.antiPassback: needs a reader inside") }, "\(lonely)")
    }
}
