import Dispatch
import Imaging
import MinutiaeExtraction
import Synchronization

/// fpmod's host matcher for image sensors: minutiae from our own extractor (`RidgeExtractor`),
/// compared as Minutia Cylinder-Codes (`CylinderTemplate`, `CylinderComparison`), with the
/// threshold set by a false-match rate through a calibration measured on real impostor pairs
/// (`ScoreCalibration`).
///
/// A template holds several impressions of one finger (an enrollment's touches); a probe is
/// compared with each, and the template matches when its best impression scores high enough
/// alone or its two best both score high enough (`MatchCriteria`), so a small sensor's window
/// has to overlap one of them well or two of them fairly. Scores run 0…1000 (the cylinder
/// similarity in thousandths).
///
/// identify returns the BEST admitted template, refusing a tie at the top (see `GallerySearch`).
/// The thresholds depend on the gallery: a search makes one comparison per enrolled impression
/// (and one pair per two impressions of a template), and the configured rate is per attempt, so
/// each comparison must be that many times rarer (`criteria(for:)`).
public struct MinutiaeMatcher: Sendable {
    /// A door's default: one identify attempt in 10,000 by a stranger matches someone.
    public static let defaultFalseMatchRate = 1e-4
    /// Touches an enrollment takes by default on an image sensor, and the range allowed: a
    /// 192 × 192 window sees a third of a fingertip, so one template needs several.
    public static let defaultEnrollCaptures = 8
    public static let enrollCaptureRange = 5...15

    /// The false-match rate of one identify attempt (or verify), 0 < rate < 1.
    public let falseMatchRate: Double
    /// Below this many minutiae an image is not compared: too little to tell fingers apart.
    /// 7, not 8, since 2026-12-06: every later touch the door refused had 7 (two of them score
    /// 150–194 with an enrolled touch), and the calibration on windows with 7 kept its tail
    /// (with 5 it rose by 10–20 points; docs/accuracy.md, "Seven ridge details").
    public var minimumMinutiae = 7
    /// Below this quality score (0…100) an image is refused as a poor capture.
    public var minimumQuality = 15
    public var extractor = RidgeExtractor()
    public var calibration = ScoreCalibration.fvc2002Crops
    /// The same for the lower score of a probe against two impressions of one other finger.
    public var pairCalibration = ScoreCalibration.fvc2002CropPairs
    /// How much of a large gallery identify compares in full (`GalleryShortlist`).
    public var shortlist = GalleryShortlist()

    public init(falseMatchRate: Double = MinutiaeMatcher.defaultFalseMatchRate) {
        precondition(falseMatchRate > 0 && falseMatchRate < 1, "a false-match rate is between 0 and 1")
        self.falseMatchRate = falseMatchRate
    }

    /// The score one comparison needs when a search makes `comparisons` of them and its best
    /// impression alone must decide (the whole rate on the single criterion).
    public func threshold(comparisons: Int) -> Int {
        calibration.threshold(perComparison: falseMatchRate / Double(max(1, comparisons)))
    }

    /// The criteria of a search making `impressions` comparisons over templates with `pairs`
    /// pairs of impressions: half the attempt's rate for each criterion.
    public func criteria(impressions: Int, pairs: Int) -> MatchCriteria {
        MatchCriteria(singleCalibration: calibration, singleRate: falseMatchRate / 2 / Double(max(1, impressions)),
                      pairCalibration: pairCalibration, pairRate: falseMatchRate / 2 / Double(max(1, pairs)))
    }

    /// The criteria a search of `gallery` applies.
    public func criteria(for gallery: MinutiaeGallery) -> MatchCriteria {
        criteria(impressions: gallery.impressionCount, pairs: gallery.impressionPairCount)
    }

    /// Below this share of the image in print, there is no finger to compare (a sensor's capture
    /// has passed its own coverage check before; a scanned print may have white margins)...
    public var minimumArea: Float = 0.2
    /// ...unless the print covers at least this many pixels: on an image larger than the
    /// FPC1020's window, as much print as `minimumArea` of that window is a finger too (FVC2002
    /// DB3_B 108_1, a small finger pressed on a 300 × 300 scanner, is print on 19 % of it:
    /// 17,000 pixels, where a window's 20 % is 7,373).
    public var minimumPrintPixels: Float = 0.2 * 192 * 192

    /// Extraction with the checks a comparison needs: a finger on the image, enough minutiae,
    /// a usable quality. Throws `.unusableImage` saying which failed.
    public func probe(_ image: GreyImage) throws(HostMatchingError) -> Probe {
        let print = extractor.extract(image)
        guard print.quality.area >= minimumArea || print.quality.area * Float(print.width * print.height) >= minimumPrintPixels else {
            throw .unusableImage(reason: "no finger on the image: print found on \(Int((print.quality.area * 100).rounded()))% of it")
        }
        guard print.quality.score >= minimumQuality else {
            throw .unusableImage(reason: "image quality \(print.quality.score) of 100, \(minimumQuality) needed")
        }
        guard print.minutiae.count >= minimumMinutiae else {
            throw .unusableImage(reason: "\(print.minutiae.count) ridge details found, \(minimumMinutiae) needed")
        }
        return Probe(print)
    }

    /// A probe of minutiae another extractor found, on `print`'s area, without the checks of
    /// `probe(_:)`: for comparing extractors under one comparison.
    public func probe(print: ExtractedPrint) -> Probe { Probe(print) }

    /// One comparison, 0…1000.
    public func score(_ probe: Probe, _ other: Probe) -> Int {
        Self.scaled(CylinderComparison.score(probe.cylinders, other.cylinders))
    }

    /// A template of the given impressions (an enrollment's accepted touches).
    public func template(of impressions: [Probe]) -> HostTemplate {
        HostTemplate(bytes: TemplateEnvelope.wrap(TemplateCoding.encode(impressions.map(\.print)), format: TemplateEnvelope.fpmodFormat))
    }

    /// A template from images without guidance (tests, the bench): every usable image is kept;
    /// throws when fewer than `minimumUsable` are.
    public func enroll(images: [GreyImage], minimumUsable: Int = 1) throws(HostMatchingError) -> HostTemplate {
        var kept: [Probe] = [], rejected: [Int] = []
        for (index, image) in images.enumerated() {
            do { kept.append(try probe(image)) } catch { rejected.append(index) }
        }
        guard kept.count >= max(1, minimumUsable) else {
            throw .notEnoughUsableImages(needed: max(1, minimumUsable), accepted: kept.count, rejectedIndices: rejected)
        }
        return template(of: Array(kept.prefix(TemplateCoding.maximumImpressions)))
    }

    /// 1:N over a gallery prepared once with `MinutiaeGallery(templates)`.
    public func identify(image: GreyImage, gallery: MinutiaeGallery) throws(HostMatchingError) -> HostMatch? {
        guard gallery.count > 0 else { return nil }
        return identify(probe: try probe(image), gallery: gallery)
    }

    /// 1:N with templates read on the spot (prepare a `MinutiaeGallery` to search repeatedly).
    public func identify(image: GreyImage, gallery: [HostTemplate]) throws(HostMatchingError) -> HostMatch? {
        guard !gallery.isEmpty else { return nil }
        return try identify(image: image, gallery: MinutiaeGallery(gallery))
    }

    /// The decision is the one `evidence(probe:gallery:)` would give (`GallerySearch`), but only
    /// the scores at or above the lower of the two thresholds are computed to the end: a score
    /// below it can be neither a template's admitting best nor its admitting second
    /// (`decisiveEvidence`). In a gallery of more than `shortlist.minimum` templates, only the
    /// shortlist's are compared (`GalleryShortlist`): there the decision is not exact.
    public func identify(probe: Probe, gallery: MinutiaeGallery) -> HostMatch? {
        identify(probe: probe, gallery: gallery, criteria: criteria(for: gallery))
    }

    /// The same decision under other criteria (the bench's per-database ones), or over one user's
    /// own templates (`refusingTies: false`: two of them tying is no doubt about who it is).
    /// Templates left off the shortlist count as scoring nothing.
    public func identify(probe: Probe, gallery: MinutiaeGallery, criteria: MatchCriteria, refusingTies: Bool = true) -> HostMatch? {
        let compared = shortlist.templates(probe: probe, gallery: gallery)
        let evidence = evidence(probe: probe, gallery: gallery, skippingBelow: criteria.lowest, templates: compared)
        return GallerySearch.decide(evidence: evidence, criteria: criteria, refusingTies: refusingTies)
    }

    /// Every template's first-stage score (`GalleryShortlist`), in gallery order: what ranks the
    /// templates a large search compares in full.
    public func shortlistScores(probe: Probe, gallery: MinutiaeGallery) -> [Float] {
        GalleryShortlist.templateScores(probe: probe, gallery: gallery)
    }

    /// Every template's score (its best impression's), in gallery order.
    public func scores(probe: Probe, gallery: MinutiaeGallery) -> [Int] {
        evidence(probe: probe, gallery: gallery).map(\.best)
    }

    /// Every template's two best impression scores, in gallery order. Large galleries are
    /// searched on every core: each comparison is independent and reads only shared, immutable data.
    public func evidence(probe: Probe, gallery: MinutiaeGallery) -> [TemplateEvidence] {
        evidence(probe: probe, gallery: gallery, skippingBelow: nil)
    }

    /// `evidence(probe:gallery:)` where it matters to a decision whose lower threshold is
    /// `threshold`: a score at or above it is exact; one below it is some lower score (a
    /// comparison whose upper bound is below the threshold stops before its last step,
    /// `CylinderComparison.score(_:_:skippingWhen:)`, and counts as -1; with no skip possible at
    /// a threshold ≤ 0, nothing changes there).
    func decisiveEvidence(probe: Probe, gallery: MinutiaeGallery, threshold: Int) -> [TemplateEvidence] {
        evidence(probe: probe, gallery: gallery, skippingBelow: threshold)
    }

    /// `templates`: only these (ascending) are compared; every other template's evidence is
    /// that of scores of -1.
    private func evidence(probe: Probe, gallery: MinutiaeGallery, skippingBelow threshold: Int?, templates: [Int]? = nil) -> [TemplateEvidence] {
        let impressions = gallery.impressions
        let cylinders = probe.cylinders
        @Sendable func score(_ index: Int) -> Int {
            guard let threshold else { return Self.scaled(CylinderComparison.score(cylinders, impressions[index])) }
            return CylinderComparison.score(cylinders, impressions[index], skippingWhen: { Self.cannotReach($0, threshold) }).map(Self.scaled) ?? -1
        }
        let compared = templates.map { $0.flatMap { gallery.impressionRange(of: $0) } } ?? Array(impressions.indices)
        var computed: [Int]
        let chunk = 64
        if compared.count >= 2 * chunk {
            let chunks = (compared.count + chunk - 1) / chunk
            let parts = Mutex([[Int]](repeating: [], count: chunks))
            DispatchQueue.concurrentPerform(iterations: chunks) { part in
                let scores = compared[(part * chunk)..<min(compared.count, (part + 1) * chunk)].map(score)
                parts.withLock { $0[part] = scores }
            }
            computed = parts.withLock { $0.flatMap { $0 } }
        } else {
            computed = compared.map(score)
        }
        var raw = [Int](repeating: -1, count: impressions.count)
        for (position, impression) in compared.enumerated() { raw[impression] = computed[position] }
        return (0..<gallery.count).map { template in TemplateEvidence(gallery.impressionRange(of: template).map { raw[$0] }) }
    }

    /// 1:1: whether `image` matches `template`, and the score.
    public func verify(image: GreyImage, template: HostTemplate) throws(HostMatchingError) -> (matched: Bool, score: Int) {
        let gallery = try MinutiaeGallery([template])
        let evidence = evidence(probe: try probe(image), gallery: gallery)[0]
        return (criteria(for: gallery).admits(evidence), evidence.best)
    }

    static func scaled(_ similarity: Float) -> Int { Int((min(1, max(0, similarity)) * 1000).rounded()) }

    /// Whether a comparison whose similarity is at most `bound` scores below `threshold`
    /// (`scaled` never decreases as the similarity grows).
    static func cannotReach(_ bound: Float, _ threshold: Int) -> Bool { scaled(bound) < threshold }
}
