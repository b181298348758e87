import Imaging

/// Host-side matching that scales to hundreds of templates: libfprint's NBIS only extracts the
/// minutiae (enrollment as `NBISMatcher` does it, so templates are the same bytes), and the
/// comparison runs here on pair tables (`PairTable`, `PairMatcher`), with the gallery's tables
/// built once (`MinutiaeGallery`) instead of libfprint's bozorth3 setup per comparison.
///
/// identify returns the BEST template at or above `threshold`, refusing a tie at the top (see
/// `GallerySearch`). Scores count agreeing minutia pairs, like bozorth3's, but are not the same
/// numbers: the threshold is this matcher's own (see `defaultThreshold`).
public struct MinutiaeMatcher: Sendable {
    /// From tools/bench-host-match.sh on the NIST prints at 192×192 (±15°, ±12 px, noise σ 8):
    /// impostor pairs scored at most 37, genuine pairs a median of ~175. 40 is the lowest with
    /// no false match there; 45 keeps a margin over the worst impostor seen (96 impostor pairs
    /// are few) for a few percent more false non-matches, the right trade for a door.
    public static let defaultThreshold = 45

    public let threshold: Int

    public init(threshold: Int = MinutiaeMatcher.defaultThreshold) {
        self.threshold = threshold
    }

    public func enrollStages() throws(HostMatchingError) -> Int { try NBISMatcher().enrollStages() }

    public func enroll(images: [GreyImage]) throws(HostMatchingError) -> HostTemplate {
        try NBISMatcher().enroll(images: images)
    }

    /// The probe's pair table: the part of a search that goes through libfprint.
    public func probe(_ image: GreyImage) throws(HostMatchingError) -> PairTable {
        try NBISMatcher.requireFinger(in: image)
        let minutiae = try LibfprintSession.with { session throws(HostMatchingError) in try session.probeMinutiae(image) }
        return PairTable(minutiae, bothWays: false)
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

    public func identify(probe: PairTable, gallery: MinutiaeGallery) -> HostMatch? {
        GallerySearch.decide(scores: scores(probe: probe, gallery: gallery), threshold: threshold)
    }

    /// Every template's score, in gallery order.
    public func scores(probe: PairTable, gallery: MinutiaeGallery) -> [Int] {
        var matcher = PairMatcher()
        return (0..<gallery.count).map { gallery.score(probe, template: $0, using: &matcher) }
    }

    /// 1:1: whether `image` matches `template` at `threshold`, and the score.
    public func verify(image: GreyImage, template: HostTemplate) throws(HostMatchingError) -> (matched: Bool, score: Int) {
        let gallery = try MinutiaeGallery([template])
        let score = scores(probe: try probe(image), gallery: gallery)[0]
        return (score >= threshold, score)
    }
}
