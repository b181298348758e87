import AccessPolicy
import Foundation
import HubStore
import Testing
import TestSupport
@testable import HubReplica
@testable import TemplateStore

/// Holidays through the change log: added, replaced and removed at the hub, the same at the door;
/// a holiday a door could not read is refused at the hub.
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct ReplicaHolidayTests {
    static func day(_ text: String) -> CivilDate { CivilDate(parsing: Substring(text))! }

    @Test func aHolidayIsAddedReplacedAndRemovedAtTheDoor() throws {
        let fleet = try ReplicaApplyTests.Fleet()
        try fleet.hub.putHoliday(name: "christmas", first: Self.day("2026-12-24"), last: Self.day("2026-12-26"), yearly: true, hours: nil)
        try fleet.hub.putHoliday(name: "inventory", first: Self.day("2027-01-04"), last: Self.day("2027-01-04"), yearly: false,
                                 hours: "daily 10:00-14:00")
        let first = try fleet.sync()
        #expect(first.holidaysPut == 2 && first.summary.contains("holidays +2 −0"))
        var holidays = try fleet.door.holidays()
        #expect(holidays.map(\.name) == ["christmas", "inventory"])
        #expect(holidays[0].yearly && holidays[0].first == "2026-12-24" && holidays[0].last == "2026-12-26" && holidays[0].hours == nil)
        #expect(holidays[1].hours == "daily 10:00-14:00")

        try fleet.hub.putHoliday(name: "christmas", first: Self.day("2026-12-25"), last: Self.day("2026-12-25"), yearly: true, hours: nil)
        _ = try fleet.hub.deleteHoliday(named: "inventory")
        let second = try fleet.sync()
        #expect(second.holidaysPut == 1 && second.holidaysRemoved == 1)
        holidays = try fleet.door.holidays()
        #expect(holidays.map(\.name) == ["christmas"] && holidays[0].first == "2026-12-25")
        // The door's own rules read it: the holiday closes the door for a user with a schedule.
        let rules = try fleet.door.accessRules(timeZone: .utc)
        #expect(rules.calendar.holidays.count == 1)
    }

    @Test func theHubRefusesAHolidayADoorCouldNotRead() throws {
        let fleet = try ReplicaApplyTests.Fleet()
        #expect(throws: HubStoreError.self) {
            try fleet.hub.putHoliday(name: "backwards", first: Self.day("2026-12-26"), last: Self.day("2026-12-24"), yearly: false, hours: nil)
        }
        #expect(throws: HubStoreError.self) {
            try fleet.hub.putHoliday(name: "odd", first: Self.day("2026-12-24"), last: Self.day("2026-12-24"), yearly: false, hours: "sometimes")
        }
        #expect(throws: HubStoreError.self) {
            try fleet.hub.putHoliday(name: "no name", first: Self.day("2026-12-24"), last: Self.day("2026-12-24"), yearly: false, hours: nil)
        }
        #expect(try fleet.hub.latestRevision() == 0)
    }
}
