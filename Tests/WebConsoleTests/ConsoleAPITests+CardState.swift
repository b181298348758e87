import ConsoleHTTP
import Foundation
import JSONValue
import TemplateStore
import Testing
@testable import WebConsole

/// A card switched off and on and given its own dates from the console, as `fpmod card
/// enable|disable|validity` does it: on a real store, each answer checked against what the store
/// and its audit then hold, and every refusal leaving both as they were.
extension ConsoleAPITests {
    static let berlin = #"{"access": {"timeZone": "Europe/Berlin"}, "console": {"enabled": true}}"#

    /// A console with erin and her card "badge" (added through the console, as an admin would).
    static func consoleWithACard(configJSON: String? = nil) throws -> (ConsoleFixture, ConsoleFixture.Browser) {
        let console = try ConsoleFixture(configJSON: configJSON)
        let admin = try console.setUp()
        try console.store.addUser(name: "erin")
        let added = console.request("POST", "/api/v1/cards", json: #"{"name":"erin","number":"26:12:3456","label":"badge"}"#, browser: admin)
        try #require(added.status == 201, "\(ConsoleFixture.text(added))")
        return (console, admin)
    }

    static func listedCard(_ console: ConsoleFixture, _ browser: ConsoleFixture.Browser) -> JSONValue? {
        let listed = ConsoleFixture.json(console.request("GET", "/api/v1/users?q=erin", browser: browser))
        return listed["users"]?.arrayValue?.first?["cards"]?.arrayValue?.first
    }

    @Test func aCardSwitchedOffAndOnAgainIsAuditedWithItsAccount() throws {
        let (console, admin) = try Self.consoleWithACard()
        let off = console.request("POST", "/api/v1/cards/switch", json: #"{"name":"erin","label":"badge","enabled":false}"#, browser: admin)
        #expect(off.status == 200 && ConsoleFixture.json(off) == .object(["ok": true, "toHub": false]), "\(ConsoleFixture.text(off))")
        #expect(try console.store.cards(of: "erin").first?.enabled == false)
        #expect(Self.listedCard(console, admin)?["enabled"] == .bool(false), "the page shows it off")

        let on = console.request("POST", "/api/v1/cards/switch", json: #"{"name":"erin","label":"badge","enabled":true}"#, browser: admin)
        #expect(on.status == 200 && ConsoleFixture.json(on)["toHub"] == .bool(false))
        #expect(try console.store.cards(of: "erin").first?.enabled == true)
        #expect(Self.listedCard(console, admin)?["enabled"] == .bool(true))

        let rows = try console.store.auditEntries(limit: 20).map { "\($0.event) \($0.user ?? "-") \($0.detail ?? "")" }
        for row in ["card-disabled erin card badge by console account alice", "console-action erin by console account alice: switched erin's card badge off",
                    "card-enabled erin card badge by console account alice", "console-action erin by console account alice: switched erin's card badge on"] {
            #expect(rows.contains(row), "\(row): \(rows)")
        }
    }

    @Test func aCardsDatesAreReadOnTheDoorsClockShownAsTheyAreTakenAndCleared() throws {
        let (console, admin) = try Self.consoleWithACard(configJSON: Self.berlin)
        let set = console.request("POST", "/api/v1/cards/validity",
                                  json: #"{"name":"erin","label":"badge","validFrom":"2026-12-24","validUntil":"2026-12-26 18:00"}"#, browser: admin)
        let described = "valid from 2026-12-24 00:00 Europe/Berlin, valid until 2026-12-26 18:00 Europe/Berlin"
        #expect(set.status == 200 && ConsoleFixture.json(set) == .object(["ok": true, "toHub": false, "described": .string(described)]),
                "\(ConsoleFixture.text(set))")
        // 2026-12-23 23:00 and 2026-12-26 17:00 UTC (Python's calendar.timegm).
        let stored = try #require(try console.store.cards(of: "erin").first)
        #expect(stored.validFrom == 1_798_066_800 && stored.validUntil == 1_798_304_400)
        let listed = try #require(Self.listedCard(console, admin))
        #expect(listed["validFrom"] == .string("2026-12-24 00:00") && listed["validUntil"] == .string("2026-12-26 18:00"))
        // Saved again as the page shows them: nothing moves.
        let again = JSONValue.object(["name": "erin", "label": "badge", "validFrom": listed["validFrom"] ?? .null, "validUntil": listed["validUntil"] ?? .null])
        #expect(console.request("POST", "/api/v1/cards/validity", json: again.encoded, browser: admin).status == 200)
        #expect(try console.store.cards(of: "erin").first == stored)

        // A side left out has no bound, as with the CLI's options; a day until runs through it.
        let untilOnly = console.request("POST", "/api/v1/cards/validity", json: #"{"name":"erin","label":"badge","validUntil":"2026-12-25"}"#, browser: admin)
        #expect(ConsoleFixture.json(untilOnly)["described"] == .string("valid until 2026-12-26 00:00 Europe/Berlin"))
        #expect(try console.store.cards(of: "erin").first.map { [$0.validFrom, $0.validUntil] } == [nil, 1_798_239_600])
        let cleared = console.request("POST", "/api/v1/cards/validity", json: #"{"name":"erin","label":"badge","validFrom":null,"validUntil":null}"#, browser: admin)
        #expect(cleared.status == 200 && ConsoleFixture.json(cleared)["described"] == .string("no dates of its own"))
        #expect(try console.store.cards(of: "erin").first.map { [$0.validFrom, $0.validUntil] } == [nil, nil])

        let rows = try console.store.auditEntries(limit: 30).map { "\($0.event) \($0.detail ?? "")" }
        for row in ["card-validity card badge: \(described) by console account alice", "console-action by console account alice: erin's card badge: \(described)",
                    "card-validity card badge: no dates of its own by console account alice"] {
            #expect(rows.contains(row), "\(row): \(rows)")
        }
    }

    @Test func aBadDateAnUnknownCardOrAViewerChangesNothing() throws {
        let (console, admin) = try Self.consoleWithACard(configJSON: Self.berlin)
        #expect(console.request("POST", "/api/v1/accounts", json: #"{"name":"vera","role":"viewer","password":"viewer password 1"}"#,
                                browser: admin).status == 200)
        let viewer = try console.logIn("vera", "viewer password 1")
        let card = try #require(try console.store.cards(of: "erin").first)
        let rowsBefore = try console.store.auditEntries(limit: 100).count

        let badDate = console.request("POST", "/api/v1/cards/validity", json: #"{"name":"erin","label":"badge","validUntil":"next week"}"#, browser: admin)
        #expect(badDate.status == 400 && (ConsoleFixture.json(badDate)["fix"]?.stringValue ?? "").contains("YYYY-MM-DD"), "\(ConsoleFixture.text(badDate))")
        let backwards = console.request("POST", "/api/v1/cards/validity",
                                        json: #"{"name":"erin","label":"badge","validFrom":"2026-12-10","validUntil":"2026-12-01"}"#, browser: admin)
        #expect(backwards.status == 400 && ConsoleFixture.json(backwards)["fix"] != nil, "\(ConsoleFixture.text(backwards))")
        let refusals: [(path: String, json: String, status: Int)] = [
            ("/api/v1/cards/validity", #"{"name":"erin","label":"badge","validFrom":20261224}"#, 400),
            ("/api/v1/cards/switch", #"{"name":"erin","label":"badge"}"#, 400),
            ("/api/v1/cards/switch", #"{"name":"erin","label":"badge","enabled":"no"}"#, 400),
            ("/api/v1/cards/switch", #"{"name":"erin","label":"spare","enabled":false}"#, 404),
            ("/api/v1/cards/validity", #"{"name":"erin","label":"spare","validUntil":"2026-12-25"}"#, 404),
            ("/api/v1/cards/switch", #"{"name":"nobody","label":"badge","enabled":false}"#, 404),
            ("/api/v1/cards/validity", #"{"name":"nobody","label":"badge"}"#, 404)
        ]
        for refusal in refusals {
            let answer = console.request("POST", refusal.path, json: refusal.json, browser: admin)
            #expect(answer.status == refusal.status, "\(refusal.json): \(ConsoleFixture.text(answer))")
        }
        let unknown = console.request("POST", "/api/v1/cards/switch", json: #"{"name":"erin","label":"spare","enabled":false}"#, browser: admin)
        #expect(ConsoleFixture.json(unknown)["error"] == .string("erin has no card named spare."))
        #expect(console.request("POST", "/api/v1/cards/switch", json: #"{"name":"erin","label":"badge","enabled":false}"#, browser: viewer).status == 403)
        #expect(console.request("POST", "/api/v1/cards/validity", json: #"{"name":"erin","label":"badge","validUntil":"2026-12-25"}"#,
                                browser: viewer).status == 403)
        #expect(try console.store.cards(of: "erin").first == card)
        #expect(try console.store.auditEntries(limit: 100).count == rowsBefore)
    }

    /// A card the fleet's hub sent (put in as a sync puts one): a change to it goes up to the hub,
    /// and the answer says so, as `fpmod card disable` does.
    @Test func aChangeToACardTheHubHasGoesUp() throws {
        let console = try ConsoleFixture(configJSON: Self.berlin)
        let admin = try console.setUp()
        let hana = try UserName(validating: "hana")
        try console.store.putReplicatedUser(ReplicatedUser(name: hana, displayName: try DisplayName(validating: "Hana"), role: .user,
                                                           fingerprintUnlock: true, pinHash: nil, verifyMode: nil, schedule: nil,
                                                           validFrom: nil, validUntil: nil, usesLeft: nil))
        let hash = [UInt8](repeating: 0x5A, count: 32)
        #expect(try console.store.putReplicatedCard(user: hana, label: try CardLabel(validating: "badge"), kind: .wiegand, hash: hash,
                                                    enabled: true, validFrom: nil, validUntil: nil) == .added)
        #expect(try console.store.cardEditsForHub(limit: 10).isEmpty)

        let off = console.request("POST", "/api/v1/cards/switch", json: #"{"name":"hana","label":"badge","enabled":false}"#, browser: admin)
        #expect(off.status == 200 && ConsoleFixture.json(off)["toHub"] == .bool(true), "\(ConsoleFixture.text(off))")
        let dated = console.request("POST", "/api/v1/cards/validity", json: #"{"name":"hana","label":"badge","validFrom":"2026-12-24"}"#, browser: admin)
        #expect(dated.status == 200 && ConsoleFixture.json(dated)["toHub"] == .bool(true), "\(ConsoleFixture.text(dated))")
        let edits = try console.store.cardEditsForHub(limit: 10)
        #expect(edits.map(\.change) == [.changed(enabled: false, validity: CardValidity(from: 1_798_066_800, until: nil))])
        #expect(edits.map(\.numberHash) == [hash])
    }
}
