@testable import DoorLock
import Testing

/// The throttle on "ignoring …" lines: the first of a kind per interval is logged, the rest
/// counted onto the next one that is; kinds are independent. Times are given, not waited for.
@Suite struct LogThrottleTests {
    @Test func theFirstOfAKindIsLoggedAndTheRestCountedOntoTheNextWindow() {
        var throttle = LogThrottle(interval: .seconds(10))
        let start = ContinuousClock.now
        #expect(throttle.admit("malformed", at: start) == (true, 0))
        for second in 1...9 {
            #expect(throttle.admit("malformed", at: start + .seconds(second)) == (false, 0))
        }
        // Another kind has its own window.
        #expect(throttle.admit("retained", at: start + .seconds(5)) == (true, 0))
        // The window is over: logged again, with the nine held back.
        #expect(throttle.admit("malformed", at: start + .seconds(10)) == (true, 9))
        #expect(throttle.admit("malformed", at: start + .seconds(11)) == (false, 0))
        #expect(throttle.admit("malformed", at: start + .seconds(30)) == (true, 1))
    }
}
