import Foundation
import Administration
import HostReader
import TemplateStore
import Testing
import TestSupport

/// Enroll and match through the real matcher (libfprint's NBIS extraction, MinutiaeMatcher)
/// on the simulated FPC1020, with a real store file.
@Suite(.serialized) struct HostEnrollTests {
    @Test func aliceEnrollsInFiveCapturesAndIsIdentifiedAndVerified() throws {
        let bench = try ReaderBench()
        var steps: [EnrollProgress] = []
        let result = try bench.enroll("alice") { steps.append($0) }
        #expect(result == EnrollResult(user: "alice", label: "right-index", slot: 0, captures: 5, retries: 0, newUser: true))
        #expect(steps.first == .placeFinger(capture: 1, of: 5))
        #expect(steps.filter { if case .stagePassed = $0 { true } else { false } }
            == (1...5).map { EnrollProgress.stagePassed(capture: $0, of: 5) })
        #expect(steps.filter { $0 == .liftFinger }.count == 4)
        #expect(steps.last == .storing(slot: 0))
        #expect(try bench.store.fingers(of: "alice").map(\.slot) == [0])
        #expect(try StoreReaderKind.recorded(in: bench.store) == .imageSensor)
        let enrollRow = try #require(bench.auditEntries.last)
        #expect(enrollRow.event == "enroll")
        #expect(enrollRow.detail == "enrolled right-index from 5 captures (0 retried)")

        let found = try #require(try bench.identify("alice-right-index").matched)
        #expect(found.user == "alice")
        #expect(found.label == "right-index")
        #expect(found.slot == 0)
        #expect(found.score >= bench.reader.matcher.threshold)
        #expect(found.times.captureMilliseconds > 0)
        #expect(found.times.extractMilliseconds > 0)
        #expect(found.times.searchMilliseconds > 0)
        let row = try #require(bench.auditEntries.last)
        #expect(row.event == "identify-match")
        #expect(row.user == "alice" && row.slot == 0 && row.score == found.score && row.detail == "right-index")
        #expect(row.latencyJSON == found.times.json)

        #expect(try bench.verify("alice", finger: "alice-right-index").matched?.user == "alice")
        #expect(bench.auditEvents.last == "verify-match")
        guard case .noMatch = try bench.verify("alice", finger: "bob-left-thumb") else {
            Issue.record("another finger verified as alice")
            return
        }
        #expect(bench.auditEvents.last == "verify-no-match")
    }

    @Test func aStrangerIsNoMatchAndNothingEnrolledIsSaid() throws {
        let bench = try ReaderBench()
        // Nothing to match against: said before anyone is asked for a finger.
        #expect(try bench.reader.identify() == .nothingEnrolled)
        try bench.enroll("alice")
        guard case .noMatch(let times) = try bench.identify("stranger") else {
            Issue.record("a stranger matched")
            return
        }
        #expect(times.extractMilliseconds > 0)
        let row = try #require(bench.auditEntries.last)
        #expect(row.event == "identify-no-match")
        #expect(row.latencyJSON == times.json)
    }

    @Test func theSameFingerCannotBeEnrolledTwiceAndTheRefusalNamesWhose() throws {
        let bench = try ReaderBench()
        try bench.enroll("alice")
        let error = expectThrows(AdministrationError.self) { try bench.enroll("bob", finger: "alice-right-index") }
        #expect(error == .duplicateFinger(slot: 0, user: "alice", label: "right-index"))
        #expect(error?.description.contains("alice's right-index") == true)
        #expect(try bench.store.user(named: "bob") == nil)
        #expect(try bench.store.occupiedSlots() == [0])
        let row = try #require(bench.auditEntries.last)
        #expect(row.event == "enroll-duplicate")
        #expect(row.user == "alice" && row.slot == 0)
    }

    @Test func aLabelTheUserHasAndAFullLibraryAreRefusedBeforeAnyCapture() throws {
        let bench = try ReaderBench(capacity: 1)
        try bench.enroll("alice")
        var steps: [EnrollProgress] = []
        let taken = expectThrows(AdministrationError.self) { try bench.enroll("alice", finger: "alice-other") { steps.append($0) } }
        #expect(taken == .fingerAlreadyEnrolled(user: "alice", label: "right-index", slot: 0))
        let full = expectThrows(HostReaderError.self) { try bench.enroll("bob") { steps.append($0) } }
        #expect(full == .libraryFull(capacity: 1))
        #expect(steps.isEmpty)
        #expect(try bench.store.user(named: "bob") == nil)
    }

    @Test func anotherFingerInTheMiddleOfAnEnrollmentIsAskedAgainThenRefused() throws {
        let bench = try ReaderBench()
        var steps: [EnrollProgress] = []
        bench.sensor.touch("alice-right-index")
        // The first capture is alice's (touched), every later one bob's (autoTouch).
        let error = expectThrows(AdministrationError.self) { try bench.enroll("alice", finger: "bob-right-index") { steps.append($0) } }
        #expect(error == .capturesDiffer)
        #expect(steps.filter { if case .retryScan(capture: 2, _) = $0 { true } else { false } }.count == 2)
        #expect(try bench.store.user(named: "alice") == nil)
        #expect(try bench.store.occupiedSlots().isEmpty)
    }

    @Test func anEnrollThatStopsBeforeItsCommitLeavesNothing() throws {
        struct Stop: Error {}
        let bench = try ReaderBench()
        bench.reader.failpoint = { if $0 == "enroll.before-commit" { throw Stop() } }
        #expect(throws: Stop.self) { try bench.enroll("alice") }
        #expect(try bench.store.users().isEmpty)
        #expect(try bench.store.occupiedSlots().isEmpty)
        #expect(!bench.auditEvents.contains("enroll"))
        #expect(try StoreReaderKind.recorded(in: bench.store) == nil)
        // Nothing half-done is left to repair: the same enrollment simply runs again.
        bench.reader.failpoint = { _ in }
        #expect(try bench.enroll("alice").slot == 0)
    }

    @Test func aSecondFingerTakesTheNextSlotAndAdminAndDuressAreKept() throws {
        let bench = try ReaderBench()
        try bench.enroll("alice")
        let second = try bench.enroll("alice", label: "left-thumb", admin: true, duress: true)
        #expect(second.slot == 1)
        #expect(!second.newUser)
        #expect(try bench.store.user(named: "alice")?.role == .admin)
        #expect(try bench.store.fingers(of: "alice").map(\.isDuress) == [false, true])
        #expect(bench.auditEntries.last?.detail == "enrolled left-thumb (duress finger) from 5 captures (0 retried)")
        #expect(try bench.identify("alice-left-thumb").matched?.slot == 1)
        #expect(try bench.identify("alice-right-index").matched?.slot == 0)
    }

    @Test func fingersFromImageFilesEnrollAndMatchAndABlankCaptureIsRetried() throws {
        let images = ReaderBench.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: images) }
        try writeFingerImages(directory: images, name: "carol", seed: 301, count: 8, blankFirst: true)
        try writeFingerImages(directory: images, name: "dave", seed: 302, count: 8)
        let bench = try ReaderBench(imagesDirectory: images)
        var steps: [EnrollProgress] = []
        let result = try bench.enroll("carol", finger: "carol") { steps.append($0) }
        #expect(result.retries == 1)
        #expect(steps.contains { if case .retryScan(capture: 1, _) = $0 { true } else { false } })
        #expect(bench.auditEntries.last?.detail == "enrolled right-index from 5 captures (1 retried)")
        #expect(try bench.store.fingers(of: "carol").first?.quality == 80)
        #expect(try bench.identify("carol").matched?.user == "carol")
        guard case .noMatch = try bench.identify("dave") else {
            Issue.record("dave matched carol")
            return
        }
    }
}
