/// Whether an image shows a finger, judged block by block: a finger's ridges make a block's grey
/// levels vary strongly, while an empty sensor (or one pressed by a palm edge or a dry smear)
/// is flat. Checked before matching so that "no finger" is never sent to the matcher as a print.
public struct FingerCoverage: Sendable, Equatable {
    /// Side of the square blocks, in pixels: about two ridge periods at 500 dpi.
    public static let blockSide = 16
    /// A block with a grey-level standard deviation below this is empty. Blocks of the NIST
    /// prints measure 12 and more even at their faint edges (18 lost a third of the whorl);
    /// noise of σ 8 on an empty sensor measures 8.
    public static let minimumBlockDeviation = 12.0

    /// Blocks that show ridges, and all blocks looked at.
    public let ridgeBlocks: Int
    public let blocks: Int

    public var fraction: Double { blocks == 0 ? 0 : Double(ridgeBlocks) / Double(blocks) }

    public init(of image: GreyImage, minimumDeviation: Double = FingerCoverage.minimumBlockDeviation) {
        let side = Self.blockSide
        var ridged = 0, total = 0
        var top = 0
        while top + side <= image.height {
            var left = 0
            while left + side <= image.width {
                total += 1
                if Self.deviation(of: image, left: left, top: top, side: side) >= minimumDeviation { ridged += 1 }
                left += side
            }
            top += side
        }
        ridgeBlocks = ridged
        blocks = total
    }

    /// True when at least `minimumFraction` of the image shows ridges.
    public func containsFinger(minimumFraction: Double = 0.5) -> Bool { fraction >= minimumFraction }

    private static func deviation(of image: GreyImage, left: Int, top: Int, side: Int) -> Double {
        var sum = 0.0, sumOfSquares = 0.0
        for y in top..<(top + side) {
            for x in left..<(left + side) {
                let level = Double(image[x, y])
                sum += level
                sumOfSquares += level * level
            }
        }
        let count = Double(side * side)
        let mean = sum / count
        return max(0, sumOfSquares / count - mean * mean).squareRoot()
    }
}
