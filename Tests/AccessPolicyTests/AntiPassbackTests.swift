import Foundation
import Testing
@testable import AccessPolicy

/// Anti-passback with an entry and an exit reader: a second entry without an exit is refused
/// (hard) or reported (soft); exits are always allowed; the memory survives a restart and can
/// be reset. Every credential grant leaves one `granted` row naming the reader.
struct AntiPassbackTests {
    static func harness(_ mode: AntiPassbackMode) -> Harness {
        Harness { $0.antiPassback = mode }
    }

    static func finger(_ user: String) -> PolicyEvent {
        .fingerMatched(user: user, slot: 1, score: 100, isAdmin: false, isDuress: false, fingerprintUnlockEnabled: true)
    }

    @Test func hardRefusesASecondEntry() throws {
        var h = Self.harness(.hard)
        #expect(h.send(Self.finger("alice"), side: .entry).unlocked)
        h.advance(60)
        let again = h.send(Self.finger("alice"), side: .entry)
        #expect(again.denials == [.passback(lastEntry: 1_700_000_000)])
        #expect(again.audits("passback").first?.detail.contains("1700000000") == true)
        h.advance(60)
        #expect(h.send(Self.finger("alice"), side: .exit).unlocked)
        h.advance(60)
        #expect(h.send(Self.finger("alice"), side: .entry).unlocked)
        // The memory survives a restart.
        try h.restart(downtime: 5)
        #expect(h.state.passback?["alice"]?.side == .entry)
        #expect(!h.send(Self.finger("alice"), side: .entry).unlocked)
    }

    @Test func softGrantsAndReports() {
        var h = Self.harness(.soft)
        h.send(Self.finger("alice"), side: .entry)
        h.advance(60)
        let again = h.send(Self.finger("alice"), side: .entry)
        #expect(again.unlocked)
        #expect(again.fields(of: "passback-violation")?["user"] == "alice")
        #expect(again.audits("passback-violation").count == 1)
    }

    @Test func anExitWithoutAnEntryIsAllowed() {
        var h = Self.harness(.hard)
        #expect(h.send(Self.finger("bob"), side: .exit).unlocked)
        h.advance(60)
        #expect(h.send(Self.finger("bob"), side: .exit).unlocked)
    }

    @Test func aResetForgetsOneUserOrEveryone() {
        var h = Self.harness(.hard)
        h.send(Self.finger("alice"), side: .entry)
        h.advance(60)
        h.send(Self.finger("bob"), side: .entry)
        let reset = h.send(.passbackReset(user: "alice", by: "carol"))
        #expect(reset.audits("passback-reset").first?.detail.contains("carol") == true)
        #expect(reset.contains(.persist))
        h.advance(60)
        #expect(h.send(Self.finger("alice"), side: .entry).unlocked)
        h.send(.passbackReset(user: nil, by: nil))
        #expect(h.state.passback == nil)
    }

    @Test func theConfigReadsTheNewKeys() throws {
        let json = #"{"antiPassback": "hard", "twoPersonSeconds": 30}"#
        let config = try JSONDecoder().decode(PolicyConfig.self, from: Data(json.utf8))
        #expect(config.antiPassback == .hard && config.twoPersonSeconds == 30)
        let defaults = try JSONDecoder().decode(PolicyConfig.self, from: Data("{}".utf8))
        #expect(defaults.antiPassback == .off && defaults.twoPersonSeconds == nil)
    }

    @Test func offRemembersNothing() {
        var h = Self.harness(.off)
        h.send(Self.finger("alice"), side: .entry)
        #expect(h.state.passback == nil)
    }

    @Test func everyCredentialGrantLeavesOneGrantedRow() throws {
        var h = Harness()
        h.access = AccessRules(users: ["contractor": UserAccess(usesLeft: 3)])
        let effects = h.send(Self.finger("contractor"), side: .exit)
        let rows = effects.audits("granted")
        #expect(rows.count == 1)
        #expect(rows.first?.user == "contractor" && rows.first?.detail == "fingerprint at the exit reader")
        #expect(effects.fields(of: "unlocked")?["side"] == "exit")
        let use = try #require(effects.firstIndex(of: .consumeUse(user: "contractor")))
        let row = try #require(effects.firstIndex { if case .audit("granted", _, _) = $0 { true } else { false } })
        #expect(use < row, "the runtime skips what follows a use it could not take")
        h.advance(10)
        #expect(h.send(.exitButton).audits("granted").isEmpty)
    }
}
