@testable import HostMatching
import Imaging
import TestSupport
import Testing

/// The first stage of a large search (`GalleryShortlist`, `TripletIndex`): how much it keeps,
/// that it ranks a finger's own template high on real impressions, and that a search through it
/// decides as the whole search does.
@Suite struct GalleryShortlistTests {
    @Test func smallGalleriesAreComparedWholeAndLargeOnesInPart() {
        let shortlist = GalleryShortlist(minimum: 64, share: 0.1)
        #expect(shortlist.kept(of: 10) == 10)
        #expect(shortlist.kept(of: 64) == 64)
        #expect(shortlist.kept(of: 100) == 64)
        #expect(shortlist.kept(of: 1000) == 100)
        #expect(shortlist.kept(of: 10_001) == 1001)
        #expect(GalleryShortlist.none.kept(of: 1_000_000) == 1_000_000)
    }

    /// Templates of impressions 1–5 of the databases' ten fingers each; probes are impressions 6–8.
    struct Door {
        let matcher: MinutiaeMatcher
        let gallery: MinutiaeGallery
        let probes: [(template: Int, probe: Probe)]

        init(_ databases: [String], matcher: MinutiaeMatcher = MinutiaeMatcher()) throws {
            self.matcher = matcher
            var templates: [HostTemplate] = [], probes: [(Int, Probe)] = []
            for database in databases {
                for finger in 101...110 {
                    let images = try (1...8).map { try FVC2002.crop(database, finger: finger, impression: $0) }
                    for image in images[5...] { if let probe = try? matcher.probe(image) { probes.append((templates.count, probe)) } }
                    templates.append(try matcher.enroll(images: Array(images[0..<5]), minimumUsable: 3))
                }
            }
            gallery = try MinutiaeGallery(templates)
            self.probes = probes
        }
    }

    /// What `HostMatchBench shortlist` measures, as a guard: over the four databases' 40
    /// templates, at the thresholds of a gallery of 1,000 (where the shortlist keeps a tenth),
    /// every template the full comparison admits ranks within the top eighth of the others
    /// (measured: at worst two of 39 above it, since the ridges were laid on each other and admit
    /// touches with fewer minutiae in common, 2026-12-07 — one before; in DB3_B alone, two of 9).
    @Test(.disabled(if: FVC2002.skipped, FVC2002.skipReason)) func aTemplateTheFullComparisonAdmitsRanksNearTheTop() throws {
        let door = try Door(FVC2002.databases)
        let criteria = door.matcher.criteria(impressions: 8000, pairs: 28_000)
        var admitted = 0
        for (template, probe) in door.probes where criteria.admits(door.matcher.evidence(probe: probe, gallery: door.gallery)[template]) {
            admitted += 1
            let scores = door.matcher.shortlistScores(probe: probe, gallery: door.gallery)
            let above = scores.indices.count { $0 != template && scores[$0] >= scores[template] }
            #expect(above * 8 <= door.gallery.count - 1, "an admitted template (\(template)) ranked below \(above) others")
        }
        #expect(admitted >= 40, "only \(admitted) probes admitted: the comparison, not the shortlist, has changed")
    }

    @Test(.disabled(if: FVC2002.skipped, FVC2002.skipReason)) func aSearchThroughAShortlistDecidesAsTheWholeSearch() throws {
        var narrow = MinutiaeMatcher()
        // The three best of DB3_B's ten (an admitted template ranks at worst third there).
        narrow.shortlist = GalleryShortlist(minimum: 3, share: 0)
        let door = try Door(["DB3_B"], matcher: narrow)
        var whole = narrow
        whole.shortlist = .none
        var found = 0
        for (template, probe) in door.probes {
            let hit = narrow.identify(probe: probe, gallery: door.gallery)
            #expect(hit == whole.identify(probe: probe, gallery: door.gallery))
            if hit?.index == template { found += 1 }
        }
        #expect(found >= 7)
        let stranger = try narrow.probe(try FVC2002.crop("DB1_B", finger: 105, impression: 4))
        #expect(narrow.identify(probe: stranger, gallery: door.gallery) == nil)
    }

    /// A template of impressions 1–5 of each finger of `databases` (crops), and the probes of
    /// impression 6 that are usable.
    static func fingers(of databases: [String], matcher: MinutiaeMatcher) throws -> (templates: [HostTemplate], probes: [Probe]) {
        var templates: [HostTemplate] = [], probes: [Probe] = []
        for database in databases {
            for finger in 101...110 {
                let images = try (1...6).map { try FVC2002.crop(database, finger: finger, impression: $0) }
                templates.append(try matcher.enroll(images: Array(images[0..<5]), minimumUsable: 3))
                if let probe = try? matcher.probe(images[5]) { probes.append(probe) }
            }
        }
        return (templates, probes)
    }

    /// The triangle index is built only when a search shortlists the gallery: a door's few
    /// templates never pay for it. Once built it follows an enroll and a removal, ranking as an
    /// index built afresh from the same templates does.
    @Test(.disabled(if: FVC2002.skipped, FVC2002.skipReason)) func theTriangleIndexIsBuiltWhenFirstNeededAndFollowsChanges() throws {
        let matcher = MinutiaeMatcher()
        let (templates, probes) = try Self.fingers(of: ["DB1_B", "DB2_B"], matcher: matcher)
        let gallery = try MinutiaeGallery(Array(templates.dropLast()))
        for probe in probes.prefix(6) { _ = matcher.identify(probe: probe, gallery: gallery) }
        #expect(!gallery.hasTripletIndex, "19 templates are compared whole: no index")
        let unindexed = gallery.byteCount

        var narrow = matcher
        narrow.shortlist = GalleryShortlist(minimum: 2, share: 0.5)
        _ = narrow.identify(probe: probes[0], gallery: gallery)
        #expect(gallery.hasTripletIndex)
        #expect(gallery.byteCount > unindexed)

        let grown = try gallery.appending(templates[templates.count - 1])
        #expect(grown.hasTripletIndex, "an enroll into a shortlisted library extends its index")
        let shrunk = grown.removing(at: 3)
        var remaining = templates
        remaining.remove(at: 3)
        let freshGrown = try MinutiaeGallery(templates), freshShrunk = try MinutiaeGallery(remaining)
        for probe in probes {
            #expect(GalleryShortlist.templateScores(probe: probe, gallery: grown) == GalleryShortlist.templateScores(probe: probe, gallery: freshGrown))
            #expect(GalleryShortlist.templateScores(probe: probe, gallery: shrunk) == GalleryShortlist.templateScores(probe: probe, gallery: freshShrunk))
        }
    }

    /// Enrollments into an indexed library wait in the recent list, which is laid into the
    /// buckets when it grows past its limit; removals reach both. At every step the index votes
    /// exactly as one built afresh from the same templates into as many buckets does.
    @Test(.disabled(if: FVC2002.skipped, FVC2002.skipReason)) func enrollmentsWaitInTheRecentListAndRankAsAFreshIndex() throws {
        let matcher = MinutiaeMatcher()
        let (templates, probes) = try Self.fingers(of: ["DB1_B", "DB3_B"], matcher: matcher)
        var gallery = try MinutiaeGallery(Array(templates.prefix(2)))
        _ = gallery.triplets
        var kept = Array(templates.prefix(2))
        var sawRecent = false, sawLaidIn = false
        func ranksAsFresh(_ step: String) throws {
            let grown = gallery.triplets
            let fresh = TripletIndex(try MinutiaeGallery(kept).impressions, buckets: grown.offsets.count - 1)
            for probe in probes {
                let keys = MinutiaTriplets.probeKeys(probe.cylinders)
                #expect(grown.similarities(probeKeys: keys) == fresh.similarities(probeKeys: keys), "\(step)")
            }
        }
        for template in templates.dropFirst(2).dropLast(2) {
            let before = gallery.triplets.impressions.count
            gallery = try gallery.appending(template)
            kept.append(template)
            let index = try #require(gallery.lazyTriplets.ifBuilt, "an enroll extends a built index")
            if !index.recentKeys.isEmpty { sawRecent = true }
            if index.recentKeys.isEmpty && index.impressions.count > before { sawLaidIn = true }
            try ranksAsFresh("after adding template \(kept.count)")
        }
        #expect(sawRecent && sawLaidIn, "both paths taken: recent \(sawRecent), laid in \(sawLaidIn)")
        gallery = try gallery.appending(templates[templates.count - 2])
        kept.append(templates[templates.count - 2])
        try #require(!gallery.triplets.recentKeys.isEmpty, "the removals meet a recent list")
        // One from the buckets, then the last added (from the recent list), then another.
        for last in [false, true, false] {
            let at = last ? kept.count - 1 : (kept.count > 5 ? 5 : 0)
            gallery = gallery.removing(at: at)
            kept.remove(at: at)
            try ranksAsFresh("after removing template \(at)")
        }
    }
}
