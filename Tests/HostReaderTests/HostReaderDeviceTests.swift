import Administration
import FingerprintModule
import ImageSensor
import Posix
import Testing
@testable import HostReader
import TestSupport

/// Waiting, the service's scan, cancellation and the device-loss classification.
@Suite(.serialized) struct HostReaderDeviceTests {
    @Test func nobodyAtTheSensorIsNoFingerAfterTheTimeout() throws {
        let bench = try ReaderBench()
        try bench.enroll("alice")
        bench.reader.fingerTimeout = .milliseconds(300)
        #expect(try bench.reader.identify() == .noFinger)
        #expect(try bench.reader.verify(user: "alice") == .noFinger)
        #expect(try !bench.reader.fingerIsDown())
        #expect(try !bench.reader.waitForFinger(deadline: .now + .milliseconds(100)))
        #expect(bench.auditEvents.last == "enroll")
    }

    /// The door's 1:1 scan after a card: the card's owner matches in their slot, another
    /// enrolled user's finger is no match (it is never compared), a user without fingers too.
    @Test func scanOnceVerifyingComparesWithThatUserOnly() throws {
        let bench = try ReaderBench()
        try bench.enroll("alice")
        try bench.enroll("bob")
        let bobSlot = try #require(try bench.reader.store.fingers(of: "bob").first?.slot)
        var timing = IdentifyTiming()
        #expect(try bench.reader.scanOnce(verifying: "bob", timing: &timing) == .noFinger)
        bench.sensor.place("bob-right-index")
        guard case .match(let slot, _) = try bench.reader.scanOnce(verifying: "bob", timing: &timing) else {
            Issue.record("bob's finger did not match 1:1")
            return
        }
        #expect(slot == bobSlot)
        bench.sensor.place("alice-right-index")
        #expect(try bench.reader.scanOnce(verifying: "bob", timing: &timing) == .noMatch)
        if case .match(let slot, _) = try bench.reader.scanOnce(plan: nil, timing: &timing) { #expect(slot != bobSlot) }
        try bench.reader.store.addUser(name: "carol")
        #expect(try bench.reader.scanOnce(verifying: "carol", timing: &timing) == .noMatch)
    }

    @Test func scanOnceReportsNoFingerAtOnceAndMatchesWhenTouched() throws {
        let bench = try ReaderBench()
        try bench.enroll("alice")
        var timing = IdentifyTiming()
        #expect(try bench.reader.scanOnce(plan: nil, timing: &timing) == .noFinger)
        bench.sensor.place("alice-right-index")
        #expect(try bench.reader.fingerIsDown())
        #expect(try bench.reader.waitForFinger(deadline: .now + .seconds(1)))
        timing = IdentifyTiming()
        guard case .match(slot: 0, let score) = try bench.reader.scanOnce(plan: nil, timing: &timing) else {
            Issue.record("scanOnce did not match alice")
            return
        }
        #expect(score >= bench.reader.matcher.threshold(comparisons: 1))
        #expect(timing.captureStart > 0 && timing.captureEnd >= timing.captureStart)
        #expect(timing.extractEnd > timing.captureEnd && timing.searchEnd >= timing.extractEnd)
        bench.sensor.place("stranger")
        timing = IdentifyTiming()
        #expect(try bench.reader.scanOnce(plan: nil, timing: &timing) == .noMatch)
        bench.sensor.lift()
    }

    @Test func aFingerLeftOnTheSensorBetweenCapturesEndsTheEnrollment() throws {
        let bench = try ReaderBench()
        bench.reader.fingerTimeout = .milliseconds(500)
        bench.sensor.place("alice-right-index")
        var steps: [EnrollProgress] = []
        let error = expectThrows(HostReaderError.self) {
            try bench.reader.enroll(user: "alice", displayName: nil, label: "right-index", captures: 8, admin: false,
                                    duress: false, progress: { steps.append($0) })
        }
        #expect(error == .fingerNotLifted)
        #expect(steps.filter { switch $0 { case .adjustFinger, .touchQuality, .touchesMatchedNoOther: false; default: true } }
            == [.placeFinger(capture: 1, of: 8), .stagePassed(capture: 1, of: 8), .liftFinger])
        #expect(try bench.store.user(named: "alice") == nil)
        bench.sensor.lift()
    }

    @Test func aCancelledWaitEndsWithCancelled() throws {
        let bench = try ReaderBench()
        try bench.enroll("alice")
        bench.reader.fingerTimeout = .seconds(60)
        let giveUp = ContinuousClock.now + .milliseconds(300)
        bench.reader.isCancelled = { ContinuousClock.now >= giveUp }
        #expect(expectThrows(AdministrationError.self) { try bench.reader.identify() } == .cancelled)
    }

    @Test func enrollIsCancelledWhileWaitingForATouch() throws {
        let bench = try ReaderBench()
        bench.reader.fingerTimeout = .seconds(60)
        let giveUp = ContinuousClock.now + .milliseconds(300)
        bench.reader.isCancelled = { ContinuousClock.now >= giveUp }
        let error = expectThrows(AdministrationError.self) {
            try bench.reader.enroll(user: "bob", displayName: nil, label: "right-index", captures: 8, admin: false,
                                    duress: false, progress: { _ in })
        }
        #expect(error == .cancelled)
        #expect(try bench.store.user(named: "bob") == nil)
        #expect(try bench.store.occupiedSlots().isEmpty)
    }

    @Test func transportFailuresAreDeviceLossAndRefusalsAreNot() throws {
        let bench = try ReaderBench()
        #expect(bench.reader.isDeviceLoss(ImageSensorError.spi(.transferFailed(path: "/dev/spidev0.0", errno: .ioError))))
        #expect(bench.reader.isDeviceLoss(ImageSensorError.interruptTimeout(waitingFor: "a captured image")))
        #expect(bench.reader.isDeviceLoss(ImageSensorError.sensorLink(path: "/run/fpmod/sensor.sock", problem: "refused")))
        #expect(!bench.reader.isDeviceLoss(ImageSensorError.noImages(folder: "/tmp/images/alice")))
        #expect(bench.reader.isDeviceLoss(ImageSensorError.wrongHardwareID(seen: 0xFFFF, expected: 0x020A, known: nil)))
        #expect(!bench.reader.isDeviceLoss(ImageSensorError.wrongHardwareID(seen: 0x021A, expected: 0x020A, known: "FPC1021")))
        #expect(!bench.reader.isDeviceLoss(ImageSensorError.sensorError(code: 1)))
        #expect(!bench.reader.isDeviceLoss(AdministrationError.cancelled))
        #expect(!bench.reader.isDeviceLoss(HostReaderError.libraryFull(capacity: 1)))
        try bench.reader.checkAlive()
        #expect(bench.reader.readerDescription.kind == .imageSensor)
        #expect(bench.reader.readerDescription.capacity == HostReader.defaultCapacity)
        bench.reader.close()
        let closed = expectThrows(HostReaderError.self) { try bench.reader.identify() }
        #expect(closed == .closed)
        #expect(bench.reader.isDeviceLoss(HostReaderError.closed))
    }
}
