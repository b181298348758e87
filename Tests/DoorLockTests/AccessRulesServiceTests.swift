import AccessPolicy
import DoorLock
import Foundation
import Posix
import Synchronization
@testable import TemplateStore
import Testing

/// The wall clock the service sees, moved by the test (the monotonic one moves with it).
final class SteppedClock: Sendable {
    private let offset = Mutex<Double>(0)
    let start: Double

    init(startingAt wall: Double) { start = wall }

    func advance(_ seconds: Double) { offset.withLock { $0 += seconds } }

    var lockClock: LockClock {
        LockClock { [self] in
            let moved = offset.withLock { $0 }
            return PolicyTime(wall: start + moved, monotonic: BootTime.seconds() + moved)
        }
    }
}

/// Issue 25: the store's schedules and uses, applied by the running service on the simulator
/// as its clock moves; another program's change reaches the next decision; a rule that cannot
/// be read refuses.
@Suite(.serialized)
struct AccessRulesServiceTests {
    /// Tuesday 2026-12-08 07:30 in Berlin (06:30 UTC).
    static let tuesdayMorning: Double = 1_796_711_400

    @Test func aScheduleDeniesThenGrantsAsTheClockMoves() throws {
        let clock = SteppedClock(startingAt: Self.tuesdayMorning)
        let lock = try LockHarness(configJSON: #"{"access": {"timeZone": "Europe/Berlin"}}"#, clock: clock.lockClock) { store in
            try store.addSchedule(name: "cleaning", schedule: WeeklySchedule(parsing: "tue 08:00-12:00"))
            try store.setAccess(of: "alice", schedule: .set("cleaning"))
        }
        let early = try lock.scan("alice-index", expecting: ["unlocked", "not-now"])
        #expect(early.name == "not-now" && early.fields["rule"] == "outside-schedule", "\(early)")
        #expect(!lock.relayChanges.contains(true))
        #expect(try lock.store.auditEntries(limit: 20).contains { $0.event == "not-now" && ($0.detail ?? "").contains("outside schedule \"cleaning\"") })

        clock.advance(3600)  // 08:30
        #expect(try lock.scan("alice-index", expecting: ["unlocked", "not-now"]).name == "unlocked")
        #expect(try lock.store.auditEntries(limit: 20).contains { $0.event == "granted" && $0.user == "alice" })

        clock.advance(4 * 3600)  // 12:30
        try lock.waitForEvent(named: "locked")
        #expect(try lock.scan("alice-index", expecting: ["unlocked", "not-now"]).name == "not-now")
    }

    @Test func anotherProgramsChangeReachesTheNextDecisionAndUsesRunOut() throws {
        let lock = try LockHarness()
        #expect(try lock.scan("alice-index", expecting: ["unlocked", "not-now"]).name == "unlocked")
        try lock.waitForEvent(named: "locked")
        // As `fpmod user set alice --uses 1` would, on its own connection.
        let admin = try TemplateStore(databasePath: lock.directory + "/store.db", keyPath: lock.directory + "/store.key")
        try admin.setAccess(of: "alice", uses: .set(1))
        let before = lock.events.count
        #expect(try lock.scan("alice-index", expecting: ["unlocked", "not-now"]).name == "unlocked")
        try lock.waitForEvent(named: "locked", after: before)
        let refused = try lock.scan("alice-index", expecting: ["unlocked", "not-now"])
        #expect(refused.name == "not-now" && refused.fields["rule"] == "no-uses-left", "\(refused)")
        #expect(try admin.access(of: "alice").usesLeft == 0)
    }

    @Test func rulesThatCannotBeReadRefuseEveryCredentialButNotTheExitButton() throws {
        let lock = try LockHarness()
        let admin = try TemplateStore(databasePath: lock.directory + "/store.db", keyPath: lock.directory + "/store.key")
        try admin.connection.execute("ALTER TABLE schedules RENAME TO schedules_elsewhere")
        let refused = try lock.scan("alice-index", expecting: ["unlocked", "not-now"])
        #expect(refused.name == "not-now" && refused.fields["rule"] == "rules-unreadable", "\(refused)")
        #expect(!lock.events(named: "error").isEmpty)
        #expect(try lock.control("pin alice 4826")["result"] as? String != "unlocked")
        #expect(!lock.relayChanges.contains(true))
        let before = lock.events.count
        lock.setInput(LockHarness.exitButton, active: true)
        try lock.waitForEvent(named: "unlocked", after: before)
        lock.setInput(LockHarness.exitButton, active: false)
    }

    /// Passage by the store's schedule: set over the control socket, the door is held open
    /// while the schedule is (moving clock), and lockdown lets only admins in.
    @Test func passageFollowsTheScheduleAndLockdownKeepsUsersOut() throws {
        let clock = SteppedClock(startingAt: Self.tuesdayMorning)
        let lock = try LockHarness(configJSON: #"{"access": {"timeZone": "Europe/Berlin", "passageSchedule": "opening"}}"#,
                                   clock: clock.lockClock) { store in
            try store.addSchedule(name: "opening", schedule: WeeklySchedule(parsing: "tue 08:00-12:00"))
        }
        let set = try lock.control("door-mode passage")
        #expect(set["mode"] as? String == "passage" && set["passage"] as? Bool == false, "\(set)")
        #expect(!lock.relayChanges.contains(true), "07:30: outside the schedule")

        clock.advance(3600)  // 08:30: any turn of the loop ticks the boundary that passed
        let opened = lock.events.count
        _ = try lock.control("status")
        try lock.waitForEvent(after: opened) { $0.name == "door-mode" && $0.fields["passage"] == "on" }
        #expect(try lock.control("status")["passage"] as? Bool == true)
        #expect(lock.relayChanges.last == true)

        clock.advance(4 * 3600)  // 12:30
        let closed = lock.events.count
        _ = try lock.control("status")
        try lock.waitForEvent(after: closed) { $0.name == "door-mode" && $0.fields["passage"] == "off" }
        #expect(lock.relayChanges.last == false)

        #expect(try lock.control("door-mode lockdown")["mode"] as? String == "lockdown")
        let refused = try lock.scan("alice-index", expecting: ["unlocked", "not-now"])
        #expect(refused.name == "not-now" && refused.fields["rule"] == "lockdown", "\(refused)")
        #expect(try lock.store.auditEntries(limit: 50).filter { $0.event == "door-mode" }.count >= 4, "each change audited")
        #expect(try lock.control("door-mode sideways")["ok"] as? Bool == false)
        // `access explain` reads the mode the service saved.
        let berlin = try TimeZoneDatabase.load("Europe/Berlin")
        let alice = try AccessExplanation.explain(user: "alice", atUTC: Int64(clock.start), store: lock.store, timeZone: berlin)
        #expect(alice.lockdown && !alice.allowed && alice.sentence.contains("lockdown"), "\(alice.sentence)")
        #expect(try AccessExplanation.explain(user: "boss", atUTC: Int64(clock.start), store: lock.store, timeZone: berlin).allowed)
    }
}
