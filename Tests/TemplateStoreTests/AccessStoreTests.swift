import AccessPolicy
import Foundation
import Synchronization
import Testing
@testable import TemplateStore

/// Issue 25 in the store: schedules, holidays and a user's rules kept as given, read back into
/// the policy's rules (never looser than stored), and limited uses taken atomically by two
/// doors at once.
struct AccessStoreTests {
    @Test func schedulesHolidaysAndAUsersRulesComeBackAsThePolicysRules() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        try store.addUser(name: "cleaner")
        try store.addUser(name: "guest")
        try store.addSchedule(name: "cleaning", schedule: WeeklySchedule(parsing: "tue 08:00-12:00"))
        #expect(throws: StoreError.duplicateSchedule("cleaning")) {
            try store.addSchedule(name: "cleaning", schedule: WeeklySchedule(parsing: "wed 08:00-12:00"))
        }
        try store.addSchedule(name: "cleaning", schedule: WeeklySchedule(parsing: "Tue 08:00-12:30"), replace: true)
        #expect(try store.schedules() == [StoredSchedule(name: "cleaning", text: "tue 08:00-12:30")])
        try store.addHoliday(name: "christmas", first: CivilDate(year: 2026, month: 12, day: 24), last: CivilDate(year: 2026, month: 12, day: 26),
                             yearly: true, hours: nil)
        try store.setAccess(of: "cleaner", schedule: .set("cleaning"))
        try store.setAccess(of: "guest", validUntil: .set(1_796_770_800), uses: .set(3))
        #expect(throws: StoreError.unknownSchedule("office", known: ["cleaning"])) { try store.setAccess(of: "guest", schedule: .set("office")) }
        #expect(throws: StoreError.invalidValidity(from: 1_796_770_800, until: 1_796_770_800)) {
            try store.setAccess(of: "guest", validFrom: .set(1_796_770_800))
        }
        #expect(try store.access(of: "guest") == UserAccess(validUntil: 1_796_770_800, usesLeft: 3), "a refused change changes nothing")

        let rules = try store.accessRules(timeZone: .utc)
        #expect(rules.users.keys.sorted() == ["cleaner", "guest"])
        #expect(rules.calendar.schedules["cleaning"]?.text == "tue 08:00-12:30")
        #expect(rules.calendar.holidays.map(\.name) == ["christmas"] && rules.calendar.holidays.first?.hours == nil)
        // Tuesday 2026-12-08 09:00 UTC.
        #expect(rules.verdict(for: "cleaner", atWall: 1_796_720_400).isAllowed)
        // Thursday 2026-12-24 09:00 UTC: Christmas Eve, closed, although a Thursday is not in the schedule anyway.
        #expect(!rules.verdict(for: "cleaner", atWall: 1_798_102_800).isAllowed)

        #expect(throws: StoreError.scheduleInUse("cleaning", users: ["cleaner"])) { try store.deleteSchedule(name: "cleaning") }
        try store.setAccess(of: "cleaner", schedule: .clear)
        try store.deleteSchedule(name: "cleaning")
        #expect(try store.schedules().isEmpty)
        try store.deleteHoliday(name: "christmas")
        #expect(throws: StoreError.unknownHoliday("christmas")) { try store.deleteHoliday(name: "christmas") }
    }

    /// A stored text this fpmod cannot read (written by a newer one, or edited by hand) never
    /// loosens access: the schedule is missing from the calendar, so its users are refused.
    @Test func aScheduleThatCannotBeReadRefusesItsUsers() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        try store.addUser(name: "cleaner")
        try store.addSchedule(name: "cleaning", schedule: WeeklySchedule(parsing: "daily 00:00-24:00"))
        try store.setAccess(of: "cleaner", schedule: .set("cleaning"))
        try store.connection.query("UPDATE schedules SET text = 'every other tuesday'")
        let verdict = try store.accessRules(timeZone: .utc).verdict(for: "cleaner", atWall: 1_796_720_400)
        #expect(verdict == .denied(.unknownSchedule("cleaning")))
    }

    /// Two doors on one store file, each with its own connection, grant at once: of 50 uses
    /// exactly 50 are taken, never 51.
    @Test func twoDoorsRacingForTheLastUsesTakeEachOnce() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let setup = try dir.openStore()
        try setup.addUser(name: "contractor")
        try setup.addUser(name: "staff")
        try setup.setAccess(of: "contractor", uses: .set(50))
        let doors = [try dir.openStore(), try dir.openStore()]
        let taken = Mutex<[Int]>([0, 0])
        let failures = Mutex<[String]>([])
        let threads = (0..<2).map { index in
            Thread {
                for _ in 0..<40 {
                    do {
                        if try doors[index].consumeUse(user: "contractor") { taken.withLock { $0[index] += 1 } }
                    } catch { failures.withLock { $0.append("\(error)") } }
                }
            }
        }
        threads.forEach { $0.start() }
        try waitForThreads { threads.allSatisfy(\.isFinished) }
        #expect(failures.withLock { $0 }.isEmpty)
        #expect(taken.withLock { $0.reduce(0, +) } == 50, "\(taken.withLock { $0 })")
        #expect(try setup.access(of: "contractor").usesLeft == 0)
        #expect(try setup.consumeUse(user: "contractor") == false)
        #expect(try setup.consumeUse(user: "staff") == true, "unlimited")
        #expect(try setup.consumeUse(user: "nobody") == false)
    }

    /// A version-6 file (as released) gains the tables and columns with its users intact.
    @Test func migrationSevenKeepsTheUsers() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        do {
            let store = try dir.openStore()
            try store.addUser(name: "alice")
        }
        let downgrade = try runPython("""
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.executescript("DROP TABLE card_edits_for_hub; ALTER TABLE cards DROP COLUMN hub_state; ALTER TABLE users DROP COLUMN from_hub; ALTER TABLE fingers DROP COLUMN hub_digest;"
                "DROP TABLE schedules; DROP TABLE holidays; ALTER TABLE users DROP COLUMN schedule;"
                "ALTER TABLE users DROP COLUMN valid_from; ALTER TABLE users DROP COLUMN valid_until;"
                "ALTER TABLE users DROP COLUMN uses_left; ALTER TABLE cards DROP COLUMN valid_from;"
                "ALTER TABLE cards DROP COLUMN valid_until;"
                "DROP TABLE console_sessions; DROP TABLE console_accounts; DROP TABLE console_tokens; DROP TABLE console_setup; DROP TABLE console_login_failures;"
                "ALTER TABLE audit DROP COLUMN prev_hash; ALTER TABLE audit DROP COLUMN hash; ALTER TABLE audit DROP COLUMN mac; PRAGMA user_version = 6;")
            db.commit()
            """, [dir.database])
        #expect(downgrade.status == 0)
        let store = try dir.openStore()
        #expect(try store.schemaVersion() == Schema.currentVersion)
        #expect(try store.access(of: "alice") == UserAccess())
        try store.setAccess(of: "alice", uses: .set(2))
        #expect(try store.consumeUse(user: "alice"))
    }
}

extension AccessStoreTests {
    /// A backup carries the rules (format 3, so an older fpmod refuses it rather than restoring
    /// a guest valid until Sunday as valid for ever), and a restore brings them back whole.
    @Test func aBackupCarriesTheRules() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        try store.addUser(name: "guest")
        #expect(try BackupFile.seal(try store.backupContents(), passphrase: "correct horse", strength: .interactive)[8] == 1, "no rules: version 1 as before")
        try store.addSchedule(name: "office", schedule: WeeklySchedule(parsing: "weekdays 07:00-19:00; fri 22:00-02:00+1"))
        try store.addHoliday(name: "inventory", first: CivilDate(year: 2027, month: 1, day: 15), last: CivilDate(year: 2027, month: 1, day: 15),
                             yearly: false, hours: WeeklySchedule(parsing: "daily 10:00-14:00"))
        try store.setAccess(of: "guest", schedule: .set("office"), validFrom: .set(1_796_000_000), validUntil: .set(1_797_000_000), uses: .set(4))
        try store.addCard(CardNumber(wiegandBits: 26, facility: 1, number: 7), label: "visitor", for: "guest")
        try store.setCardValidity(user: "guest", label: "visitor", from: nil, until: 1_796_500_000, described: "valid until then")
        #expect(throws: StoreError.invalidValidity(from: 5, until: 5)) {
            try store.setCardValidity(user: "guest", label: "visitor", from: 5, until: 5, described: "")
        }
        let file = try store.exportBackup(passphrase: "correct horse", strength: .interactive)
        #expect(file[8] == 3)

        let other = try TemporaryDirectory()
        defer { other.remove() }
        let restored = try other.openStore()
        try restored.addUser(name: "someone-else")
        try restored.replaceAll(with: try TemplateStore.importBackup(file, passphrase: "correct horse"))
        #expect(try restored.accessRules(timeZone: .utc) == store.accessRules(timeZone: .utc))
        #expect(try restored.access(of: "guest") == UserAccess(schedule: "office", validFrom: 1_796_000_000, validUntil: 1_797_000_000, usesLeft: 4))
        #expect(try restored.cards(of: "guest").first?.validUntil == 1_796_500_000)

        // A rule that does not read is refused before anything changes.
        var bad = try TemplateStore.importBackup(file, passphrase: "correct horse")
        bad.schedules[0].text = "weekdays 19:00-07:00"
        #expect(throws: StoreError.self) { try restored.replaceAll(with: bad) }
        var orphan = try TemplateStore.importBackup(file, passphrase: "correct horse")
        orphan.schedules = []
        #expect(throws: StoreError.self) { try restored.replaceAll(with: orphan) }
        #expect(try restored.schedules().map(\.name) == ["office"], "nothing changed")
    }
}

private func waitForThreads(_ done: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(60)
    while !done() {
        guard Date() < deadline else { throw StoreError.busy(path: "threads did not finish") }
        Thread.sleep(forTimeInterval: 0.01)
    }
}
