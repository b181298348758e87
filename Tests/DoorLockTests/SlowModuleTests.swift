import DoorLock
import Foundation
import Testing

struct SlowModuleTests {
    /// Replies slower than the driver's deadline: the scan fails as a lost module, never hangs.
    @Test func repliesPastTheDeadlineCountAsDisconnected() throws {
        let lock = try LockHarness()
        lock.simulator.fault(.delay(milliseconds: 800))
        let before = lock.events.count
        lock.press("alice-index")
        try lock.waitForEvent(named: "disconnected", after: before, timeout: .seconds(20))
        try waitUntil("the scan is over") { !lock.service.snapshot.scanInFlight }
        lock.simulator.fault(.none)
        try lock.waitForEvent(named: "reconnected", after: before, timeout: .seconds(20))
        lock.liftFinger()
    }
}

struct SlowExitTests {
    @Test func exitButtonWhileSlowScanThenRecovery() throws {
        let lock = try LockHarness(configJSON: VerifyLoopTests.fastDoor)
        lock.simulator.fault(.delay(milliseconds: 800))
        let before = lock.events.count
        lock.press("mallory")
        try waitUntil("the scan starts") { lock.service.snapshot.scanInFlight }
        lock.setInput(LockHarness.exitButton, active: true)
        try lock.waitForEvent(named: "unlocked", after: before)
        lock.setInput(LockHarness.exitButton, active: false)
        try lock.waitForEvent(named: "locked", after: before)
        lock.simulator.fault(.none)
        try lock.waitForEvent(after: before, timeout: .seconds(20)) { ["no-match", "disconnected"].contains($0.name) }
        lock.liftFinger()
    }
}
