import Administration
import HostMatching
import ImageSensorSimulator
import TemplateStore
import Testing
@testable import HostReader
import TestSupport

/// The cached gallery follows the store: this reader's deletes, another process's enrolls; a
/// damaged template is an error naming its slot; a slot the store cannot resolve is tamper.
@Suite(.serialized) struct HostGalleryTests {
    @Test func aDeletedFingerNoLongerMatches() throws {
        let bench = try ReaderBench()
        try bench.enroll("alice")
        try bench.enroll("bob")
        #expect(try bench.identify("alice-right-index").matched?.user == "alice")
        let removed = try bench.reader.delete(user: "alice", label: nil)
        #expect(removed == DeleteResult(user: "alice", fingers: [RemovedFinger(label: "right-index", slot: 0)], userRemoved: true))
        #expect(Array(bench.auditEvents.suffix(2)) == ["delete", "delete-user"])
        guard case .noMatch = try bench.identify("alice-right-index") else {
            Issue.record("a deleted finger still matched")
            return
        }
        #expect(try bench.identify("bob-right-index").matched?.slot == 1)
        // The freed slot is the next one handed out.
        #expect(try bench.enroll("carol").slot == 0)
    }

    @Test func anEnrollByAnotherStoreInstanceIsSeenAtTheNextIdentify() throws {
        let bench = try ReaderBench()
        try bench.enroll("alice")
        #expect(try bench.identify("alice-right-index").matched?.user == "alice")
        // Another process: its own store connection, sensor and reader on the same files.
        let otherStore = try TemplateStore(databasePath: bench.store.databasePath, keyPath: bench.store.keyPath)
        let otherSensor = try SimulatedImageSensor()
        let other = try HostReader(sensor: otherSensor, store: otherStore)
        otherSensor.autoTouch = "bob-right-index"
        let bob = try other.enroll(user: "bob", displayName: nil, label: "right-index", captures: 8, admin: false, duress: false,
                                   progress: { _ in })
        otherSensor.autoTouch = nil
        #expect(bob.slot == 1)
        let builds = bench.reader.galleryBuilds
        try bench.reader.prepareGallery()
        #expect(bench.reader.cachedGallery?.slots == [0, 1])
        #expect(bench.reader.galleryBuilds == builds + 1, "a change by another process is a rebuild")
        #expect(try bench.identify("bob-right-index").matched?.user == "bob")
        // And the other reader sees a delete made through this one.
        try bench.reader.delete(user: "bob", label: "right-index")
        otherSensor.touch("bob-right-index")
        guard case .noMatch = try other.identify() else {
            Issue.record("the other reader still matched a deleted finger")
            return
        }
    }

    /// This reader's own enrolls and deletes change the gallery in place (one template's pair
    /// tables, not the library's), and the result is what a build from the store gives.
    @Test func enrollAndDeleteUpdateTheGalleryInPlaceAsAFreshBuildWouldBe() throws {
        let bench = try ReaderBench()
        for user in ["alice", "bob", "carol"] { try bench.enroll(user) }
        #expect(try bench.identify("alice-right-index").matched?.user == "alice")
        try bench.enroll("dave")
        try bench.reader.delete(user: "bob", label: nil)
        #expect(try bench.identify("dave-right-index").matched?.user == "dave")
        if case .match(let found) = try bench.identify("bob-right-index") { Issue.record("deleted bob matched as \(found.user)") }
        #expect(try bench.identify("carol-right-index").matched?.user == "carol")
        #expect(bench.reader.galleryBuilds == 1, "only the first enroll built the (empty) gallery")

        let kept = try #require(bench.reader.cachedGallery)
        let fresh = try HostGallery.build(from: bench.store)
        #expect(kept.digest == fresh.digest)
        #expect(kept.slots.sorted() == fresh.slots.sorted())
        let matcher = MinutiaeMatcher()
        for finger in ["alice-right-index", "carol-right-index", "dave-right-index", "erin-right-index"] {
            bench.sensor.touch(finger)
            let probe = try matcher.probe(try bench.sensor.capture())
            let keptScores = Dictionary(uniqueKeysWithValues: zip(kept.slots, matcher.scores(probe: probe, gallery: kept.gallery)))
            let freshScores = Dictionary(uniqueKeysWithValues: zip(fresh.slots, matcher.scores(probe: probe, gallery: fresh.gallery)))
            #expect(keptScores == freshScores, "\(finger)")
        }
    }

    @Test func aDamagedTemplateIsAnErrorNamingItsSlot() throws {
        let bench = try ReaderBench()
        try bench.enroll("alice")
        try bench.store.addUser(name: "mallory")
        // A host-template header on bytes that are not one: passes the store guard, not the gallery.
        try bench.store.addFinger(user: "mallory", label: "right-index", slot: 5, template: Array("FPMH".utf8) + [1, 9, 9, 9],
                                  quality: 100)
        let error = expectThrows(HostReaderError.self) { try bench.identify("alice-right-index") }
        guard case .damagedTemplate(slot: 5, user: "mallory", label: "right-index", _) = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(error?.description.contains("fpmod delete mallory --finger right-index") == true)
    }

    @Test func aTieBetweenTwoOfTheUsersFingersVerifiesButDoesNotIdentify() throws {
        let bench = try ReaderBench()
        try bench.enroll("alice")
        // The same template under a second label: every probe scores the two alike.
        try bench.store.addFinger(user: "alice", label: "copy", slot: 1, template: try bench.store.template(atSlot: 0), quality: 100)
        #expect(try bench.verify("alice", finger: "alice-right-index").matched?.user == "alice")
        guard case .noMatch = try bench.identify("alice-right-index") else {
            Issue.record("identify picked one of two tied templates")
            return
        }
    }

    @Test func aMatchOnASlotTheStoreDoesNotKnowIsTamperNeverAMatch() throws {
        let bench = try ReaderBench()
        try bench.enroll("alice")
        // A gallery holding alice's template under slot 7, which no finger row names, current
        // with the store's digest so it is not rebuilt: what a gallery out of step would do.
        let template = HostTemplate(bytes: try bench.store.template(atSlot: 0))
        bench.reader.cachedGallery = HostGallery(slots: [7], gallery: try MinutiaeGallery([template]),
                                                 digest: try bench.store.enrolledSetDigest())
        guard case .tamper(unknownSlot: 7, let score) = try bench.identify("alice-right-index") else {
            Issue.record("an unknown slot did not give a tamper finding")
            return
        }
        #expect(score >= bench.reader.matcher.threshold(comparisons: 1))
        let row = try #require(bench.auditEntries.last)
        #expect(row.event == "tamper")
        #expect(row.slot == 7 && row.user == nil)
    }
}
