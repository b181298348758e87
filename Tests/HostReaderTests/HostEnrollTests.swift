import Foundation
import Administration
import HostReader
import TemplateStore
import Testing
import TestSupport

/// Enroll and match through the real matcher (fpmod's extractor and cylinder codes,
/// MinutiaeMatcher) on the simulated FPC1020, with a real store file.
@Suite(.serialized) struct HostEnrollTests {
    @Test func aliceEnrollsInEightTouchesAndIsIdentifiedAndVerified() throws {
        let bench = try ReaderBench()
        var steps: [EnrollProgress] = []
        let result = try bench.enroll("alice") { steps.append($0) }
        #expect(result.user == "alice" && result.slot == 0 && result.retries == 0 && result.newUser)
        #expect((3...8).contains(result.captures), "the template keeps the touches that match each other")
        #expect(steps.first == .placeFinger(capture: 1, of: 8))
        #expect(steps.filter { if case .stagePassed = $0 { true } else { false } }
            == (1...8).map { EnrollProgress.stagePassed(capture: $0, of: 8) })
        #expect(steps.filter { $0 == .liftFinger }.count == 7)
        // Each kept touch says its quality, right after it passed (the console shows it live).
        let qualities = steps.compactMap { step -> (Int, Int)? in
            if case let .touchQuality(capture, score) = step { (capture, score) } else { nil }
        }
        #expect(qualities.map(\.0) == Array(1...8) && qualities.allSatisfy { (1...100).contains($0.1) })
        #expect(steps.last == .storing(slot: 0))
        #expect(try bench.store.fingers(of: "alice").map(\.slot) == [0])
        #expect(try StoreReaderKind.recorded(in: bench.store) == .imageSensor)
        let enrollRow = try #require(bench.auditEntries.last)
        #expect(enrollRow.event == "enroll")
        #expect(enrollRow.detail?.hasPrefix("enrolled right-index from \(result.captures) of 8 touches (0 retried") == true)

        let found = try #require(try bench.identify("alice-right-index").matched)
        #expect(found.user == "alice")
        #expect(found.label == "right-index")
        #expect(found.slot == 0)
        #expect(found.score >= bench.reader.matcher.threshold(comparisons: 1))
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

    @Test func anotherFingerForHalfTheTouchesIsRefusedNamingThem() throws {
        let bench = try ReaderBench()
        var steps: [EnrollProgress] = []
        // Touches 1–4 are alice's, 5–8 bob's.
        let error = expectThrows(HostReaderError.self) {
            try bench.enroll("alice") { step in
                steps.append(step)
                if step == .stagePassed(capture: 4, of: 8) { bench.sensor.autoTouch = "bob-right-index" }
            }
        }
        guard case let .differentFingers(first, second)? = error else {
            Issue.record("expected different fingers, got \(String(describing: error))")
            return
        }
        #expect(Set(first + second).isSubset(of: Set(1...8)) && Set(first).isDisjoint(with: Set(second)))
        #expect(error?.description.contains("different fingers") == true)
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
        #expect(bench.auditEntries.last?.detail?.hasPrefix("enrolled left-thumb (duress finger) from \(second.captures) of 8 touches") == true)
        #expect(try bench.identify("alice-left-thumb").matched?.slot == 1)
        #expect(try bench.identify("alice-right-index").matched?.slot == 0)
    }

    @Test func fingersFromImageFilesEnrollAndMatchAndABlankCaptureIsRetried() throws {
        let images = ReaderBench.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: images) }
        try writeFingerImages(directory: images, name: "carol", seed: 301, count: 9, blankFirst: true)  // 8 touches and a retry, then identify
        try writeFingerImages(directory: images, name: "dave", seed: 302, count: 8)
        let bench = try ReaderBench(imagesDirectory: images)
        var steps: [EnrollProgress] = []
        let result = try bench.enroll("carol", finger: "carol") { steps.append($0) }
        #expect(result.retries == 1)
        #expect(steps.contains { if case .retryScan(capture: 1, _) = $0 { true } else { false } })
        #expect(bench.auditEntries.last?.detail?.contains("of 8 touches (1 retried") == true)
        // The finger's quality is its kept touches' mean image quality.
        #expect((1...100).contains(try bench.store.fingers(of: "carol").first?.quality ?? 0))
        #expect(try bench.identify("carol").matched?.user == "carol")
        guard case .noMatch = try bench.identify("dave") else {
            Issue.record("dave matched carol")
            return
        }
    }

    /// Eight touches asked for, seven images that show the finger and one blank: the simulator
    /// serves the images again in turn, so the eighth touch is never given well (a blank, then
    /// repeats). The enrollment ends with the seven good touches, which match each other, rather
    /// than refusing them all.
    @Test func aTouchThatIsNeverGivenWellStillEnrollsTheGoodOnes() throws {
        let images = ReaderBench.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: images) }
        try writeFingerImages(directory: images, name: "erin", seed: 303, count: 7, blankFirst: true)
        let bench = try ReaderBench(imagesDirectory: images)
        let result = try bench.enroll("erin", finger: "erin")
        #expect(result.captures == 7 && result.retries > 8)
        #expect(bench.auditEntries.last?.detail?.contains("from 7 of 7 touches") == true)
        #expect(try bench.identify("erin").matched?.user == "erin")
    }

    /// Real impressions (FVC2002 DB4_B finger 110): five usable touches that never match each
    /// other, a finger moved about on a small window. The enrollment asks for more touches (the
    /// simulator serves the same five again, refused as repeats), then takes the five as they
    /// are, naming them in the audit; a later touch of the finger is recognised by them.
    @Test(.disabled(if: FVC2002.skipped, FVC2002.skipReason)) func touchesThatNeverOverlapAreTakenOnceNoMoreCome() throws {
        let images = ReaderBench.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: images) }
        // FVC2002 DB4_B finger 110's touches 1–3, which pair below the link score, and two touches
        // of other fingers standing for parts of it a small window saw apart (its touches 4 and 5
        // link since the ridges are laid on each other, 2026-12-07; until then 1–5 were used). The
        // later touch is another of one of those parts (finger 105's second): the template holds it.
        let touches = ["110_1", "110_2", "110_3", "105_1", "106_1"]
        for (name, files) in [("frank", touches), ("frank-later", ["105_2"])] {
            try FileManager.default.createDirectory(atPath: "\(images)/\(name)", withIntermediateDirectories: true)
            for (k, file) in files.enumerated() {
                try FileManager.default.copyItem(atPath: "\(FVC2002.directory)/DB4_B/\(file).png", toPath: "\(images)/\(name)/\(k + 1).png")
            }
        }
        let bench = try ReaderBench(imagesDirectory: images)
        var steps: [EnrollProgress] = []
        let result = try bench.enroll("frank", finger: "frank", captures: 5) { steps.append($0) }
        #expect(result.captures == 5)
        #expect(steps.contains { if case .retryScan(_, let reason) = $0 { reason.contains("overlap too little") } else { false } })
        // Said before storing, as the audit says it after.
        #expect(steps.suffix(2) == [.touchesMatchedNoOther(touches: [1, 2, 3, 4, 5]), .storing(slot: result.slot)])
        #expect(bench.auditEntries.last?.detail?.contains("from 5 of 5 touches") == true)
        #expect(bench.auditEntries.last?.detail?.contains("touches 1, 2, 3, 4, 5 matched no other") == true)
        #expect(try bench.identify("frank-later").matched?.user == "frank")
    }
}
