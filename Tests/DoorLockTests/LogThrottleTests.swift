@testable import DoorLock
import Testing

/// The throttle on "ignoring …" lines: the first of a kind per interval is logged, the rest
/// counted onto the next one that is; kinds are independent. Times are given, not waited for.
@Suite struct LogThrottleTests {
    /// nil when held back, else how many were held back before it (a plain optional to compare
    /// in #expect, rather than a tuple).
    func said(_ verdict: (log: Bool, suppressed: Int)) -> Int? { verdict.log ? verdict.suppressed : nil }

    @Test func theFirstOfAKindIsLoggedAndTheRestCountedOntoTheNextWindow() {
        var throttle = LogThrottle(interval: .seconds(10))
        let start = ContinuousClock.now
        #expect(said(throttle.admit("malformed", at: start)) == 0)
        for second in 1...9 {
            #expect(said(throttle.admit("malformed", at: start + .seconds(second))) == nil)
        }
        // Another kind has its own window.
        #expect(said(throttle.admit("retained", at: start + .seconds(5))) == 0)
        // The window is over: logged again, with the nine held back.
        #expect(said(throttle.admit("malformed", at: start + .seconds(10))) == 9)
        #expect(said(throttle.admit("malformed", at: start + .seconds(11))) == nil)
        #expect(said(throttle.admit("malformed", at: start + .seconds(30))) == 1)
    }
}
