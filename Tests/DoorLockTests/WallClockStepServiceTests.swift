import AccessPolicy
import DoorLock
import Foundation
import Posix
import Synchronization
import Testing

/// The wall clock alone, stepped by the test; CLOCK_BOOTTIME and the boot id are the real ones.
final class WallOnlyClock: Sendable {
    private let step = Mutex<Double>(0)

    func stepWall(_ seconds: Double) { step.withLock { $0 += seconds } }

    var lockClock: LockClock {
        LockClock { [self] in
            PolicyTime(wall: Date().timeIntervalSince1970 + step.withLock { $0 }, monotonic: BootTime.seconds(),
                       bootID: BootID.current)
        }
    }
}

/// Issue 27, item 5, in the running service: a wall-clock step while the lock is idle is
/// reported when the loop next wakes (here: a status request, which decides nothing), once,
/// with both clocks; later decisions carry both while the clocks disagree.
@Suite(.serialized)
struct WallClockStepServiceTests {
    @Test func anIdleStepIsLoggedAtTheNextWakeAndLaterEventsCarryBothClocks() throws {
        let clock = WallOnlyClock()
        let lock = try LockHarness(clock: clock.lockClock)
        let before = lock.events.count
        clock.stepWall(-3600)
        _ = try lock.control("status")
        let stepped = try lock.waitForEvent(named: "wall-clock-stepped", after: before)
        #expect(stepped.fields["seconds"] == "-3600", "\(stepped.fields)")
        #expect(stepped.fields["wall-offset"] == "-3600", "\(stepped.fields)")
        #expect(stepped.fields["monotonic"] != nil && stepped.fields["wall"] != nil, "\(stepped.fields)")
        #expect(lock.logLines.contains("wall clock stepped back 1 h 0 min; lockouts and grace windows count on the monotonic clock"),
                "\(lock.logLines.all)")

        let after = lock.events.count
        _ = try lock.control("pin alice 0000")
        let wrong = try lock.waitForEvent(named: "pin-wrong", after: after)
        #expect(wrong.fields["wall-offset"] == "-3600", "\(wrong.fields)")
        #expect(wrong.fields["policy-clock"] != nil, "\(wrong.fields)")
        #expect(lock.events(named: "wall-clock-stepped").count == 1, "reported once")
    }
}
