import FingerprintModule
import FingerprintProtocol

/// Waiting for a touch by polling GenImg (a few ms per round trip). The CLI has no touch line;
/// the door service waits on its touch line and calls the driver directly instead.
extension Administrator {
    /// Polls GenImg until an image is captured. A failed capture (`03`) counts as "still waiting".
    func waitForCapture() throws {
        let deadline = ContinuousClock.now + fingerTimeout
        while true {
            if case .captured = try module.captureImage() { return }
            if ContinuousClock.now >= deadline { throw AdministrationError.noFingerPlaced }
        }
    }

    /// Polls GenImg until the sensor is empty, so the next capture is a new touch.
    func waitForLift() throws {
        let deadline = ContinuousClock.now + fingerTimeout
        while try module.captureImage() != .noFinger {
            if ContinuousClock.now >= deadline { throw AdministrationError.noFingerPlaced }
        }
    }
}
