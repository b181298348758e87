import Foundation
import Testing
@testable import AccessPolicy

/// Door modes with the fake clock: who may change them, passage holding the door without a
/// relay pulse, lockdown letting only admins in (and everyone out).
struct DoorModeTests {
    @Test func passageWithoutScheduleHoldsUntilTheModeChanges() {
        var h = Harness()
        let set = h.setMode(.passage)
        #expect(set.unlocks == [.passage])
        #expect(!set.pulses, "the runtime holds the relay; no pulse caps it")
        #expect(set.fields(of: "door-mode") == ["mode": "passage", "cause": "command", "passage": "on"])
        #expect(set.audits("door-mode").first?.user == "root on the control socket")
        #expect(h.state.status(at: h.now, config: h.config).passageHolding)
        #expect(h.deadline == nil)
        // A day later, still held; the door closing does not relock it; LOCK does not either.
        #expect(h.tick(after: 86_400).isEmpty)
        h.send(.doorOpened)
        #expect(!h.send(.doorClosed).locked)
        #expect(!h.send(.lockRequested(source: .local)).locked)
        // A credential is still recorded, without a pulse.
        let match = h.match()
        #expect(!match.pulses)
        #expect(h.state.passageHolding)
        let back = h.setMode(.normal)
        #expect(back.locked)
        #expect(back.fields(of: "door-mode")?["passage"] == "off")
        #expect(h.state.doorMode == .normal && h.state.storedDoorMode == nil)
    }

    @Test func statusShowsTheModeAndThePassage() {
        var h = Harness()
        #expect(h.state.status(at: h.now, config: h.config).doorMode == .normal)
        h.setMode(.passage)
        let status = h.state.status(at: h.now, config: h.config)
        #expect(status.doorMode == .passage && status.passageHolding && status.isUnlocked)
    }

    @Test func twoPeopleAreStillNeededInLockdownButOnlyAdminsCount() {
        var h = Harness { $0.twoPersonSeconds = 30 }
        h.setMode(.lockdown)
        #expect(h.match("bob").denials == [.lockdown])
        #expect(h.state.twoPersonWaiting == nil)
        #expect(!h.match("carol", admin: true).unlocked)
        #expect(h.match("dave", admin: true).unlocked)
    }

    @Test func anOpenDoorIsNoAlarmDuringPassageButIsAfterIt() {
        var h = Harness()
        h.send(.doorClosed)
        h.setMode(.passage)
        h.send(.doorOpened)
        #expect(h.deadline == nil, "no held-open timer while passage holds")
        #expect(h.tick(after: 600).alarms.isEmpty)
        h.setMode(.normal)
        #expect(h.tick(after: 31).alarms == [.heldOpen])
    }

    @Test func remoteModeChangeNeedsAnAdmin() {
        var h = Harness()
        let refused = h.setMode(.passage, by: "ha", source: .remote(client: "fpmod@broker"))
        #expect(refused.denials == [.remoteNotAllowed(.adminRequired)])
        #expect(h.state.doorMode == .normal)
        let allowed = h.setMode(.lockdown, by: "carol", source: .remote(client: "fpmod@broker"), isAdmin: true)
        #expect(allowed.fields(of: "door-mode")?["mode"] == "lockdown")
        #expect(allowed.audits("door-mode").first?.detail.contains("MQTT client fpmod@broker") == true)
        #expect(allowed.contains(.persist))
        // Out of lockdown is loosening: an admin again; into it, or back from passage to
        // normal, only keeps people out and needs none.
        #expect(h.setMode(.normal, by: "ha", source: .remote(client: "fpmod@broker")).denials == [.remoteNotAllowed(.adminRequired)])
        h.setMode(.passage)
        #expect(h.setMode(.normal, by: "ha", source: .remote(client: "fpmod@broker")).denials.isEmpty)
        #expect(h.state.doorMode == .normal)
        #expect(h.setMode(.lockdown, by: "ha", source: .remote(client: "fpmod@broker")).denials.isEmpty)
        #expect(h.state.doorMode == .lockdown)
    }

    @Test func lockdownLetsOnlyAdminsInAndEveryoneOut() {
        var h = Harness()
        h.setMode(.passage)
        let lockdown = h.setMode(.lockdown)
        #expect(lockdown.locked, "passage ends at once")
        let bob = h.match("bob")
        #expect(bob.denials == [.lockdown])
        #expect(bob.fields(of: "not-now")?["rule"] == "lockdown")
        #expect(h.match("carol", admin: true).unlocked)
        h.advance(10)
        #expect(h.send(.exitButton).unlocks == [.exitButton])
        h.advance(10)
        let remote = h.send(.pinEntered(user: "bob", correct: true, source: .remote(client: "c")))
        #expect(remote.denials == [.lockdown])
        h.advance(10)
        #expect(h.send(.pinEntered(user: "carol", correct: true, isAdmin: true, source: .remote(client: "c"))).unlocked)
        // Leaving lockdown names the mode to return to.
        #expect(h.setMode(.passage).unlocks == [.passage])
    }

    @Test func modeAndFirstPersonSurviveARestart() throws {
        var h = Harness()
        h.setMode(.passage)
        let restarted = try h.restart(downtime: 60)
        #expect(h.state.doorMode == .passage)
        #expect(restarted.unlocks == [.passage], "held again after the start's lock")
        #expect(restarted.fields(of: "door-mode")?["cause"] == "started")
        h.setMode(.lockdown)
        try h.restart()
        #expect(h.state.doorMode == .lockdown)
        #expect(h.match("bob").denials == [.lockdown])
    }

    @Test func oldStateWithoutModesReadsAsNormal() throws {
        let json = #"{"schemaVersion":1,"clock":0,"lock":{"locked":{}},"fingerprintFailures":{"consecutive":0,"permanent":false},"pinFailures":{"consecutive":0,"permanent":false},"pinRequired":[],"tamperSwitchActive":false,"moduleConnected":true,"door":{"heldOpenAlarmed":false,"openedWhileUnlocked":false}}"#
        let state = try JSONDecoder().decode(PolicyState.self, from: Data(json.utf8))
        #expect(state.doorMode == .normal && state.passback == nil)
    }
}
