import Foundation
import ImageSensor
import Imaging
import Synchronization
import Testing
@testable import ImageSensorSimulator
import TestSupport

/// The simulated FPC1020: fingers go down and up, captures show them or a blank sensor, and
/// waiting for a finger wakes when one is placed from another thread.
@Suite struct SimulatedImageSensorTests {
    @Test func theIdentityIsAnFPC1020() throws {
        let sensor = try SimulatedImageSensor()
        #expect(sensor.identity.model == "FPC1020A (simulated)")
        #expect(sensor.identity.width == 192 && sensor.identity.height == 192 && sensor.identity.dotsPerInch == 508)
    }

    @Test func withoutAFingerACaptureIsBlankAndHoldsNoFinger() throws {
        let sensor = try SimulatedImageSensor()
        let image = try sensor.capture()
        #expect(image.width == 192 && image.height == 192)
        #expect(!FingerCoverage().evaluate(image).holdsFinger)
        let error = expectThrows(ImageSensorError.self) { try sensor.captureFinger() }
        guard case .noFinger? = error else { Issue.record("got \(String(describing: error))"); return }
    }

    @Test func aPlacedFingerStaysUntilLiftedAndEveryCaptureDiffers() throws {
        let sensor = try SimulatedImageSensor()
        sensor.place("alice")
        let first = try sensor.captureFinger().image
        let second = try sensor.captureFinger().image
        #expect(first != second)
        #expect(sensor.status.finger == "alice")
        sensor.lift()
        #expect(!FingerCoverage().evaluate(try sensor.capture()).holdsFinger)
        #expect(sensor.status.finger == nil)
        #expect(sensor.status.captures == 3)
    }

    @Test func aTouchLiftsAfterOneCaptureAndTheObserverHearsBoth() throws {
        let sensor = try SimulatedImageSensor()
        let heard = Mutex<[Bool]>([])
        sensor.observeFingerPresence { present in heard.withLock { $0.append(present) } }
        sensor.touch("bob")
        #expect(try sensor.waitForFinger(deadline: .now))
        _ = try sensor.captureFinger()
        #expect(!FingerCoverage().evaluate(try sensor.capture()).holdsFinger)
        #expect(try !sensor.waitForFinger(deadline: .now))
        // Once at once with the current state, then down, then up.
        #expect(heard.withLock { $0 } == [false, true, false])
    }

    @Test func waitingEndsAtTheDeadlineWithoutAFinger() throws {
        let sensor = try SimulatedImageSensor()
        let deadline = ContinuousClock.now + .milliseconds(50)
        #expect(try !sensor.waitForFinger(deadline: deadline))
        #expect(ContinuousClock.now >= deadline)
    }

    @Test func aFingerPlacedByAnotherThreadWakesTheWait() throws {
        let sensor = try SimulatedImageSensor()
        let waiting = DispatchSemaphore(value: 0)
        sensor.observeFingerPresence { _ in }
        let placer = Thread {
            waiting.wait()
            // Most likely after the wait below has gone to sleep, which is the case to check.
            usleep(100_000)
            sensor.place("carol")
        }
        placer.start()
        waiting.signal()
        // The wait ends when carol is placed, not at this far deadline (after which it would
        // also see carol, had nobody woken it).
        let deadline = ContinuousClock.now + .seconds(60)
        #expect(try sensor.waitForFinger(deadline: deadline))
        #expect(ContinuousClock.now < deadline)
        #expect(sensor.status.finger == "carol")
    }

    @Test func autoTouchPutsTheFingerDownForEachWait() throws {
        let sensor = try SimulatedImageSensor()
        sensor.autoTouch = "dave"
        #expect(sensor.autoTouch == "dave")
        #expect(try sensor.waitForFinger(deadline: .now))
        _ = try sensor.captureFinger()
        // Lifted after the capture, as enroll's "lift your finger" expects, and down again on the next wait.
        #expect(!FingerCoverage().evaluate(try sensor.capture()).holdsFinger)
        #expect(try sensor.waitForFinger(deadline: .now))
        _ = try sensor.captureFinger()
        sensor.autoTouch = nil
        #expect(try !sensor.waitForFinger(deadline: .now))
    }

    @Test func settingAutoTouchWakesAWaitInProgress() throws {
        let sensor = try SimulatedImageSensor()
        let setter = Thread {
            usleep(100_000)
            sensor.autoTouch = "gus"
        }
        setter.start()
        let deadline = ContinuousClock.now + .seconds(60)
        #expect(try sensor.waitForFinger(deadline: deadline))
        #expect(ContinuousClock.now < deadline)
        #expect(sensor.status.finger == "gus")
    }

    @Test func generatedFingersDependOnTheNameAndSeedOnly() throws {
        func firstCapture(_ finger: String, seed: UInt64) throws -> SensorImage {
            let sensor = try SimulatedImageSensor(seed: seed)
            sensor.place(finger)
            return try sensor.capture()
        }
        #expect(try firstCapture("erin", seed: 1) == firstCapture("erin", seed: 1))
        #expect(try firstCapture("erin", seed: 1) != firstCapture("erin", seed: 2))
        #expect(try firstCapture("erin", seed: 1) != firstCapture("frank", seed: 1))
    }
}
