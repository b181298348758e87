import FingerprintModule
import FingerprintProtocol
import Foundation

/// Waiting for a touch by polling GenImg, paced by `fingerPollInterval` and cancellable. The
/// CLI has no touch line; the door service waits on its touch line for scans and calls the
/// driver directly instead.
extension Administrator {
    /// Polls GenImg until an image is captured. A failed capture (`03`) counts as "still waiting".
    func waitForCapture() throws {
        let deadline = ContinuousClock.now + fingerTimeout
        while true {
            let polled = ContinuousClock.now
            if case .captured = try module.captureImage() { return }
            if ContinuousClock.now >= deadline { throw AdministrationError.noFingerPlaced }
            try pause(after: polled)
        }
    }

    /// Polls GenImg until the sensor is empty, so the next capture is a new touch.
    func waitForLift() throws {
        let deadline = ContinuousClock.now + fingerTimeout
        while true {
            let polled = ContinuousClock.now
            if try module.captureImage() == .noFinger { return }
            if ContinuousClock.now >= deadline { throw AdministrationError.noFingerPlaced }
            try pause(after: polled)
        }
    }

    /// Between two polls: stop when cancelled, else wait out the rest of the poll interval.
    func pause(after polled: ContinuousClock.Instant) throws {
        if isCancelled() { throw AdministrationError.cancelled }
        let (seconds, attoseconds) = ContinuousClock.now.duration(to: polled + fingerPollInterval).components
        let remaining = Double(seconds) + Double(attoseconds) / 1e18
        if remaining > 0 { Thread.sleep(forTimeInterval: remaining) }
    }
}
