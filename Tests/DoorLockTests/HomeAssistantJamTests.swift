import DoorLock
import Testing

/// When the lock shows `JAMMED` besides a forced door: tries at the door that did not open it.
struct HomeAssistantJamTests {
    /// An unlock for `reason` at `start`, relocked `length` seconds later, the door opening in
    /// between or not.
    func unlock(_ jam: inout HomeAssistantJam, _ reason: String = "fingerprint", at start: Double,
                length: Double = 3, doorOpen: Bool? = false, opens: Bool = false) {
        jam.unlocked(reason: reason, doorOpen: doorOpen, at: start)
        if opens { jam.doorOpened() }
        jam.locked(at: start + length)
    }

    @Test func twoUnopenedTriesInARowAreJammed() {
        var jam = HomeAssistantJam(threshold: 2)
        unlock(&jam, at: 0)
        #expect(!jam.jammed, "one unused unlock is somebody changing their mind")
        #expect(jam.unopenedInARow == 1)
        unlock(&jam, "pin", at: 10)
        #expect(jam.jammed)
        // The door opening proves it moves again.
        jam.doorOpened()
        #expect(!jam.jammed)
        #expect(jam.unopenedInARow == 0)
    }

    @Test func triesFarApartAreNotInARow() {
        var jam = HomeAssistantJam(threshold: 2)
        unlock(&jam, at: 0)
        unlock(&jam, at: 3 + HomeAssistantJam.retryWindow + 1)
        #expect(!jam.jammed)
        #expect(jam.unopenedInARow == 1)
    }

    @Test func anOpenedDoorInBetweenStartsAgain() {
        var jam = HomeAssistantJam(threshold: 2)
        unlock(&jam, at: 0)
        unlock(&jam, at: 10, opens: true)
        unlock(&jam, at: 20)
        #expect(!jam.jammed)
        #expect(jam.unopenedInARow == 1)
    }

    @Test func remoteUnlocksAndTheExitButtonDoNotCount() {
        var jam = HomeAssistantJam(threshold: 2)
        for (index, reason) in ["remote", "exitButton", "remote", "exitButton"].enumerated() {
            unlock(&jam, reason, at: Double(index) * 5)
        }
        #expect(!jam.jammed)
        #expect(jam.unopenedInARow == 0)
    }

    @Test func withoutADoorContactNothingIsKnown() {
        var jam = HomeAssistantJam(threshold: 1)
        unlock(&jam, at: 0, doorOpen: nil)
        unlock(&jam, at: 5, doorOpen: nil)
        #expect(!jam.jammed)
        // A door already open when it was unlocked is not a try that failed.
        unlock(&jam, at: 10, doorOpen: true)
        #expect(!jam.jammed)
    }

    @Test func anExtendedUnlockIsOneTry() {
        var jam = HomeAssistantJam(threshold: 2)
        jam.unlocked(reason: "fingerprint", doorOpen: false, at: 0)
        jam.unlocked(reason: "fingerprint", doorOpen: false, at: 1)
        jam.locked(at: 4)
        jam.locked(at: 4)
        #expect(!jam.jammed)
        #expect(jam.unopenedInARow == 1)
    }

    @Test func aWindowCutShortIsNoTry() {
        var jam = HomeAssistantJam(threshold: 2)
        for start in [0.0, 5] {
            jam.unlocked(reason: "fingerprint", doorOpen: false, at: start)
            jam.locked(ranOut: false, at: start + 1)  // LOCK from Home Assistant, or tamper
        }
        #expect(!jam.jammed)
        #expect(jam.unopenedInARow == 0)
    }

    @Test func zeroSwitchesItOff() {
        var jam = HomeAssistantJam(threshold: 0)
        for index in 0..<5 { unlock(&jam, at: Double(index) * 5) }
        #expect(!jam.jammed)
    }

    @Test func theLockStateShowsIt() {
        var status = HomeAssistantLockStatus()
        status.doorOpen = false
        status.jammed = true
        #expect(HomeAssistantState.lockState(status) == "JAMMED")
        status.jammed = false
        #expect(HomeAssistantState.lockState(status) == "LOCKED")
    }
}
