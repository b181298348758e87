import Administration
import Foundation
import ImageSensor
import Imaging

/// Waiting for a finger, capturing, and waiting for the lift. The sensor's own wait sleeps in
/// poll(2) on its interrupt; it is cut into slices so that `isCancelled` is asked between them.
extension HostReader {
    /// One capture: a finger, or an image without one (why, for the audit row and progress).
    enum Capture {
        case finger(GreyImage)
        case empty(String)
    }

    public func waitForFinger(deadline: ContinuousClock.Instant) throws -> Bool {
        while true {
            if isCancelled() { throw AdministrationError.cancelled }
            let sliceEnd = min(deadline, ContinuousClock.now + cancellationSlice)
            if try sensor.waitForFinger(deadline: sliceEnd) { return true }
            if ContinuousClock.now >= deadline { return false }
        }
    }

    /// A capture and its coverage check: lifting is seen as an image with no ridges.
    public func fingerIsDown() throws -> Bool {
        if case .finger = try capture() { return true }
        return false
    }

    /// Captures one image and keeps it only when it holds a finger (`captureFinger`'s coverage
    /// check), so an empty or smeared sensor never reaches the matcher.
    func capture() throws -> Capture {
        do {
            return .finger(try sensor.captureFinger().image)
        } catch let error as ImageSensorError {
            if case .noFinger(let coverage) = error { return .empty("no finger on the image: \(coverage)") }
            throw error
        }
    }

    /// Waits up to `fingerTimeout` for a touch (enroll); no touch is `noFingerPlaced`.
    func waitForTouch() throws {
        guard try waitForFinger(deadline: ContinuousClock.now + fingerTimeout) else {
            throw AdministrationError.noFingerPlaced
        }
    }

    /// Captures until an image shows no finger, so the next capture is a new touch.
    func waitForLift() throws {
        let deadline = ContinuousClock.now + fingerTimeout
        while true {
            if case .empty = try capture() { return }
            if ContinuousClock.now >= deadline { throw HostReaderError.fingerNotLifted }
            if isCancelled() { throw AdministrationError.cancelled }
            Thread.sleep(forTimeInterval: Double(liftPollInterval.components.attoseconds) / 1e18
                + Double(liftPollInterval.components.seconds))
        }
    }
}
