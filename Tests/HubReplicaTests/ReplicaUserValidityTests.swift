import AccessPolicy
import Foundation
import HubStore
import Testing
import TestSupport
@testable import HubReplica
@testable import TemplateStore

/// A user's validity set at the hub (`HubStore.setValidity`, as `fpmod hub user-validity` and the
/// fleet console set it), on a real PostgreSQL, reaching a real door store: the door's own rules
/// then refuse the user outside the dates and once the uses run out.
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct ReplicaUserValidityTests {
    /// 2026-12-24 00:00 UTC and 2026-12-27 00:00 UTC.
    static let christmasEve: Int64 = 1_798_070_400, afterBoxingDay: Int64 = 1_798_329_600

    @Test func aValiditySetAtTheHubReachesTheDoorAndIsEnforcedThere() throws {
        let fleet = try ReplicaApplyTests.Fleet()
        try fleet.hub.putSchedule(name: "office", text: "daily 00:00-24:00")
        try fleet.hub.putUser(HubUser(name: "bob", displayName: "Bob B.", schedule: "office"))
        _ = try fleet.sync()
        let changed = try #require(try fleet.hub.setValidity(ofUser: "bob", validFrom: .set(Self.christmasEve), validUntil: .set(Self.afterBoxingDay),
                                                             usesLeft: .set(2)))
        #expect(changed.user.displayName == "Bob B." && changed.user.schedule == "office", "the whole user recorded, not only the validity")
        let result = try fleet.sync()
        #expect(result.usersPut == 1 && result.to == changed.revision)
        #expect(try fleet.door.access(of: "bob") == UserAccess(schedule: "office", validFrom: Self.christmasEve, validUntil: Self.afterBoxingDay, usesLeft: 2))

        // The door's own rules: not before the first moment, not from the end on, two grants.
        let rules = try fleet.door.accessRules(timeZone: .utc)
        let bob = try #require(rules.users["bob"])
        #expect(rules.calendar.verdict(for: bob, atUTC: Self.christmasEve - 1) == .denied(.notYetValid(from: Self.christmasEve)))
        #expect(rules.calendar.verdict(for: bob, atUTC: Self.christmasEve).isAllowed)
        #expect(rules.calendar.verdict(for: bob, atUTC: Self.afterBoxingDay) == .denied(.expired(at: Self.afterBoxingDay)))
        #expect(try fleet.door.consumeUse(user: "bob"))
        #expect(try fleet.door.consumeUse(user: "bob"))
        #expect(try !fleet.door.consumeUse(user: "bob"), "the uses the hub gave are spent")
        let spent = try #require(try fleet.door.accessRules(timeZone: .utc).users["bob"])
        #expect(rules.calendar.verdict(for: spent, atUTC: Self.christmasEve) == .denied(.noUsesLeft))

        // Only what is named changes: the end taken away, the start and the count kept as the hub has them.
        try #require(try fleet.hub.setValidity(ofUser: "bob", validUntil: .clear) != nil)
        _ = try fleet.sync()
        #expect(try fleet.door.access(of: "bob") == UserAccess(schedule: "office", validFrom: Self.christmasEve, usesLeft: 2))
        // Everything taken away: any date, any number of times.
        try #require(try fleet.hub.setValidity(ofUser: "bob", validFrom: .clear, usesLeft: .clear) != nil)
        _ = try fleet.sync()
        #expect(try fleet.door.access(of: "bob") == UserAccess(schedule: "office"))
    }

    @Test func aValidityNoDoorCouldKeepIsRefusedAndNothingIsWritten() throws {
        let fleet = try ReplicaApplyTests.Fleet()
        try fleet.hub.putUser(HubUser(name: "bob", validFrom: Self.christmasEve))
        let before = try fleet.hub.latestRevision()
        #expect(throws: HubStoreError.invalid("the validity would end before it starts")) {
            try fleet.hub.setValidity(ofUser: "bob", validFrom: .set(Self.afterBoxingDay), validUntil: .set(Self.christmasEve))
        }
        // An end before the start the hub already has: the update is rolled back.
        #expect(throws: HubStoreError.invalid("the validity would end before it starts; nothing was changed")) {
            try fleet.hub.setValidity(ofUser: "bob", validUntil: .set(Self.christmasEve - 60))
        }
        #expect(throws: HubStoreError.self) { try fleet.hub.setValidity(ofUser: "bob", usesLeft: .set(-1)) }
        #expect(throws: HubStoreError.self) { try fleet.hub.setValidity(ofUser: "b ob", usesLeft: .set(1)) }
        #expect(try fleet.hub.setValidity(ofUser: "nobody", usesLeft: .set(1)) == nil)
        #expect(try fleet.hub.latestRevision() == before)
        let listed = try #require(try fleet.hub.users(named: "bob").first)
        #expect(listed.validFrom == Self.christmasEve && listed.validUntil == nil && listed.usesLeft == nil)
    }
}
