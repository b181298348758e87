import Imaging

/// fpmod's minutiae extractor: normalisation, orientation field, segmentation, ridge period,
/// contextual (Gabor) enhancement, thinning, minutiae from the skeleton and removal of the
/// false ones, and a quality score. Pure computation on one image, no state: share it freely.
public struct RidgeExtractor: Sendable, Equatable {
    public struct Settings: Sendable, Equatable {
        /// The block of orientation, period and segmentation, in pixels.
        public var blockSize = 8
        /// Least grey-level deviation in a block of print (0…255 scale).
        public var minimumContrast: Float = 8
        /// Least orientation coherence in a block of print (at 0.25 dry and faint regions of real
        /// prints were cut away with their minutiae: docs/accuracy.md "The extractor's share").
        public var minimumCoherence: Float = 0.15
        /// Ridge period assumed where none can be measured (about 500 dpi).
        public var fallbackPeriod: Float = 9
        /// Minutiae kept at most, the best by quality.
        public var maximumMinutiae = 100

        public init() {}
    }

    public var settings: Settings

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    public func extract(_ image: GreyImage) -> ExtractedPrint {
        let grid = BlockGrid(width: image.width, height: image.height, blockSize: settings.blockSize)
        let normalised = Normalisation.locallyNormalised(image, radius: 8)
        let field = OrientationField(normalised, grid: grid)
        let foreground = Segmentation.foreground(image, grid: grid, coherence: field.coherence,
                                                 minimumContrast: settings.minimumContrast, minimumCoherence: settings.minimumCoherence)
        let quality = Self.quality(foreground: foreground, coherence: field.coherence)
        guard foreground.contains(true) else {
            return ExtractedPrint(width: image.width, height: image.height, minutiae: [], blockSize: grid.blockSize,
                                  blocksAcross: grid.across, blocksDown: grid.down, foreground: foreground, quality: quality)
        }
        let periods = RidgePeriod.estimate(normalised, field: field, foreground: foreground, fallback: settings.fallbackPeriod)
        let enhanced = RidgeEnhancement.enhance(normalised, field: field, periods: periods, foreground: foreground)
        var skeleton = [UInt8](repeating: 0, count: image.width * image.height)
        for index in skeleton.indices where enhanced.values[index] < 0 { skeleton[index] = 1 }
        // Specks of ridge and pores (islands of valley inside a ridge) thin into short ridges
        // and loops whose ends and forks are false minutiae: cleared before thinning.
        BinaryCleanup.removeSmallComponents(&skeleton, width: image.width, height: image.height, of: 1, smallerThan: 20)
        BinaryCleanup.removeSmallComponents(&skeleton, width: image.width, height: image.height, of: 0, smallerThan: 30)
        // The ridges themselves, on the print, for the comparison's last step (`RidgeMap`).
        let ridges = RidgeMap(width: image.width, height: image.height, pixels: skeleton) { x, y in
            foreground[(y / grid.blockSize) * grid.across + x / grid.blockSize]
        }
        Thinning.thin(&skeleton, width: image.width, height: image.height)
        // Hairs thinning leaves on a ridge's side would each be a false ending and a false fork.
        BinaryCleanup.pruneSpurs(&skeleton, width: image.width, height: image.height, shorterThan: 6)
        // A minutia's block and its eight neighbours must be print (blocks beyond the image's
        // edge do not count against it: the window's edge is handled by the edge margin).
        let interior = (0..<grid.count).map { block -> Bool in
            let row = block / grid.across, column = block % grid.across
            for dy in -1...1 {
                for dx in -1...1 {
                    let r = row + dy, c = column + dx
                    guard r >= 0, c >= 0, r < grid.down, c < grid.across else { continue }
                    if !foreground[r * grid.across + c] { return false }
                }
            }
            return true
        }
        var minutiae = SkeletonMinutiae.find(skeleton: skeleton, width: image.width, height: image.height, grid: grid,
                                             interior: interior, coherence: field.coherence, settings: .init())
        if minutiae.count > settings.maximumMinutiae {
            minutiae = Array(minutiae.sorted { $0.quality > $1.quality }.prefix(settings.maximumMinutiae))
        }
        // Off the print a direction means nothing: 0 there, so equal images give equal prints.
        let orientations = field.angles.indices.map { foreground[$0] ? field.angles[$0] : 0 }
        return ExtractedPrint(width: image.width, height: image.height, minutiae: minutiae, blockSize: grid.blockSize,
                              blocksAcross: grid.across, blocksDown: grid.down, foreground: foreground, orientations: orientations,
                              ridges: ridges, quality: quality)
    }

    /// Area (share of print blocks) and clarity (their mean coherence), and a score of both:
    /// full marks from 70 % print at a coherence of 0.55, the level of clear ridges.
    static func quality(foreground: [Bool], coherence: [Float]) -> PrintQuality {
        let blocks = foreground.indices.filter { foreground[$0] }
        let area = Float(blocks.count) / Float(max(1, foreground.count))
        let clarity = blocks.isEmpty ? 0 : blocks.reduce(Float(0)) { $0 + coherence[$1] } / Float(blocks.count)
        let score = Int((100 * min(1, area / 0.7) * min(1, clarity / 0.55)).rounded())
        return PrintQuality(score: score, area: area, clarity: clarity)
    }
}
