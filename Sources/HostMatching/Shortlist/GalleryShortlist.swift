/// How much of a large gallery a search compares in full: the templates whose impressions
/// share most of the probe's triangles (`TripletIndex`), at least `minimum` of them and at
/// least `share` of the gallery; a gallery of `minimum` templates or fewer is compared whole.
///
/// Not exact: a template the full comparison would admit could rank below the cut. On
/// FVC2002 crops (`HostMatchBench shortlist`), every genuine template admitted at the
/// thresholds of a gallery of 1,000 or 10,000 ranked within the top 3 % of 40; `share` leaves
/// a margin over that, and `minimum` keeps small galleries, where the thresholds are lower and
/// weaker matches are admitted, exact.
public struct GalleryShortlist: Sendable, Equatable {
    public var minimum: Int
    public var share: Double

    public init(minimum: Int = 64, share: Double = 0.1) {
        self.minimum = minimum
        self.share = share
    }

    /// Compares every template: the search without a first stage.
    public static let none = GalleryShortlist(minimum: .max, share: 1)

    /// How many of `count` templates are compared.
    func kept(of count: Int) -> Int {
        guard count > minimum else { return count }
        return min(count, max(minimum, Int((Double(count) * share).rounded(.up))))
    }

    /// The templates to compare, ascending, or nil for all of them.
    func templates(probe: Probe, gallery: MinutiaeGallery) -> [Int]? {
        let kept = kept(of: gallery.count)
        guard kept < gallery.count else { return nil }
        let scores = templateScores(probe: probe, gallery: gallery)
        // Highest first; among equals, the earlier template, so the cut is the same every time.
        let ranked = scores.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
        return ranked.prefix(kept).sorted()
    }

    /// Each template's first-stage score: the best of its impressions'.
    static func templateScores(probe: Probe, gallery: MinutiaeGallery) -> [Float] {
        let impressions = gallery.triplets.similarities(probeKeys: MinutiaTriplets.probeKeys(probe.cylinders))
        return (0..<gallery.count).map { template in gallery.impressionRange(of: template).map { impressions[$0] }.max() ?? 0 }
    }

    func templateScores(probe: Probe, gallery: MinutiaeGallery) -> [Float] { Self.templateScores(probe: probe, gallery: gallery) }
}
