@testable import HostMatching
import MinutiaeExtraction
import TestSupport
import Testing

/// A template matches on its best impression alone or on its two best together
/// (`MatchCriteria`): the attempt's rate stays the configured one, the search picks the
/// least likely chance resemblance, and on real touches the second criterion recognises later
/// touches best-of-impressions misses, without admitting strangers.
@Suite struct MatchCriteriaTests {
    let matcher = MinutiaeMatcher()

    @Test func theTwoCriteriaTogetherKeepTheAttemptsRate() {
        for (impressions, pairs) in [(5, 10), (50, 100), (800, 2_800)] {
            let criteria = matcher.criteria(impressions: impressions, pairs: pairs)
            let rate = Double(impressions) * matcher.calibration.falseMatchRate(atScore: criteria.single)
                + Double(pairs) * matcher.pairCalibration.falseMatchRate(atScore: criteria.pair)
            #expect(rate <= matcher.falseMatchRate, "\(impressions) impressions, \(pairs) pairs: \(rate)")
            // Two touches of a stranger both resembling the probe is rarer: the pair's score sits lower.
            #expect(criteria.pair < criteria.single)
        }
    }

    /// An empty gallery (the first enrollment's duplicate check) still has criteria.
    @Test func anEmptyGalleryHasCriteria() throws {
        let criteria = matcher.criteria(for: try MinutiaeGallery([]))
        #expect(criteria.pair < criteria.single && criteria.single < 1000)
    }

    @Test func evidenceIsATemplatesTwoBestScores() {
        #expect(TemplateEvidence([40, 120, 75, 90]) == TemplateEvidence(best: 120, second: 90))
        #expect(TemplateEvidence([120, 120]) == TemplateEvidence(best: 120, second: 120))
        #expect(TemplateEvidence([64]) == TemplateEvidence(best: 64, second: -1))
    }

    @Test func eitherCriterionAdmitsAndTheRarerEvidenceWins() {
        let criteria = MatchCriteria(single: 140, pair: 105)
        let alone = TemplateEvidence(best: 150, second: 30), two = TemplateEvidence(best: 115, second: 110)
        let neither = TemplateEvidence(best: 139, second: 104), one = TemplateEvidence(best: 139, second: -1)
        #expect(criteria.admits(alone) && criteria.admits(two))
        #expect(!criteria.admits(neither) && !criteria.admits(one))
        #expect(GallerySearch.decide(evidence: [neither, two], criteria: criteria) == HostMatch(index: 1, score: 115))
        let stronger = TemplateEvidence(best: 300, second: 30)
        #expect(GallerySearch.decide(evidence: [two, stronger, neither], criteria: criteria)?.index == 1)
        // Two templates a stranger reaches equally rarely: refused, unless they are one user's.
        #expect(GallerySearch.decide(evidence: [two, neither, two], criteria: criteria) == nil)
        #expect(GallerySearch.decide(evidence: [two, neither, two], criteria: criteria, refusingTies: false)?.index == 0)
    }

    /// The door of `fpmod bench accuracy --door` on DB3_B: fingers enrolled from impressions
    /// 1–5, later touches 6–8, strangers every crop of DB1_B. At the product's criteria the
    /// second criterion must recognise no fewer later touches than the best impression alone at
    /// the whole rate, and let no stranger in. (It recognised more until the ridges were laid on
    /// each other, 2026-12-07: 21 of 30 against 17; since, the best impression alone finds all
    /// 30 of DB3_B, and 28 / 22 / 26 of DB1, DB2 and DB4 — the second criterion as many.)
    @Test(.disabled(if: FVC2002.skipped, FVC2002.skipReason)) func twoImpressionsRecogniseMoreLaterTouchesAndNoStranger() throws {
        var templates: [[ExtractedPrint]] = [], later: [(finger: Int, probe: Probe)] = []
        for finger in 101...110 {
            let touches = (1...8).map { try? matcher.probe(try FVC2002.crop("DB3_B", finger: finger, impression: $0)) }
            var collector = EnrollmentCollector(wanted: 5, matcher: matcher)
            for case let touch? in touches.prefix(5) { _ = collector.add(touch) }
            guard case .template(let kept, _) = collector.outcome else { continue }
            templates.append(kept.map { collector.touches[$0].print })
            later += touches.suffix(3).compactMap { $0 }.map { (templates.count - 1, $0) }
        }
        let gallery = MinutiaeGallery(prints: templates)
        let product = matcher.criteria(for: gallery)
        let aloneOnly = MatchCriteria(single: matcher.threshold(comparisons: gallery.impressionCount), pair: .max)
        var recognised = 0, recognisedAlone = 0
        for (owner, probe) in later {
            if matcher.identify(probe: probe, gallery: gallery, criteria: product)?.index == owner { recognised += 1 }
            if matcher.identify(probe: probe, gallery: gallery, criteria: aloneOnly)?.index == owner { recognisedAlone += 1 }
        }
        #expect(recognised >= recognisedAlone && recognised >= 28, "recognised \(recognised), best impression alone \(recognisedAlone)")
        for finger in 101...110 {
            for impression in 1...8 {
                guard let stranger = try? matcher.probe(try FVC2002.crop("DB1_B", finger: finger, impression: impression)) else { continue }
                #expect(matcher.identify(probe: stranger, gallery: gallery) == nil, "DB1_B \(finger)_\(impression) let in")
            }
        }
    }
}
