/// Whether an image holds a finger, judged block by block: a finger's ridges make a block's grey
/// levels vary strongly around a middle grey, while an empty capacitive sensor reads nearly flat
/// and a palm edge, a dry smear or specks of dirt are flat or saturated. A finger placed on half
/// the sensor covers half the blocks. Checked on every capture (`captureFinger`) and again before
/// matching, so "no finger" is never sent to the matcher as a print.
///
/// One check for both: it was two (the sensor's, 24-pixel blocks with a mean limit; the
/// matcher's, 16-pixel blocks without one) until the image types became one.
public struct FingerCoverage: Sendable, Equatable {
    /// Block side in pixels: about two ridge periods at 500 dpi (a period is 8–10 pixels), so
    /// a block spans two ridges; 16 cuts the FPC1020's 192×192 into 12 × 12 blocks.
    public var blockSize: Int
    /// Standard deviation, in grey levels, a block needs to count as covered. Blocks of the
    /// NIST prints measure 12 and more even at their faint edges (18 lost a third of the
    /// whorl); noise of σ 8 on an empty sensor measures 8.
    public var minimumContrast: Double
    /// Mean grey a covered block stays within: white with black specks has contrast but no ridges.
    public var usableMean: ClosedRange<Double>
    /// Share of blocks that must be covered.
    public var minimumCoverage: Double

    public init(blockSize: Int = 16, minimumContrast: Double = 12, usableMean: ClosedRange<Double> = 20...235,
                minimumCoverage: Double = 0.5) {
        self.blockSize = blockSize
        self.minimumContrast = minimumContrast
        self.usableMean = usableMean
        self.minimumCoverage = minimumCoverage
    }

    public struct Result: Sendable, Equatable, CustomStringConvertible {
        public var coveredBlocks: Int
        public var totalBlocks: Int
        /// The share of covered blocks needed (`minimumCoverage`).
        public var required: Double
        public var coverage: Double { totalBlocks == 0 ? 0 : Double(coveredBlocks) / Double(totalBlocks) }
        public var holdsFinger: Bool { totalBlocks > 0 && coverage >= required }

        public init(coveredBlocks: Int, totalBlocks: Int, required: Double) {
            self.coveredBlocks = coveredBlocks
            self.totalBlocks = totalBlocks
            self.required = required
        }

        public var description: String {
            "\(coveredBlocks) of \(totalBlocks) blocks show ridges (\(Int((coverage * 100).rounded())) %, \(Int((required * 100).rounded())) % needed)"
        }
    }

    /// Whole blocks only, from the top left; a strip narrower than a block at the right or
    /// bottom edge is not looked at.
    public func evaluate(_ image: GreyImage) -> Result {
        let columns = image.width / blockSize
        let rows = image.height / blockSize
        var covered = 0
        for blockRow in 0..<rows {
            for blockColumn in 0..<columns where isCovered(image, left: blockColumn * blockSize, top: blockRow * blockSize) {
                covered += 1
            }
        }
        return Result(coveredBlocks: covered, totalBlocks: rows * columns, required: minimumCoverage)
    }

    private func isCovered(_ image: GreyImage, left: Int, top: Int) -> Bool {
        var sum = 0.0, sumOfSquares = 0.0
        for y in top..<(top + blockSize) {
            let row = y * image.width
            for x in left..<(left + blockSize) {
                let level = Double(image.pixels[row + x])
                sum += level
                sumOfSquares += level * level
            }
        }
        let count = Double(blockSize * blockSize)
        let mean = sum / count
        let deviation = max(0, sumOfSquares / count - mean * mean).squareRoot()
        return usableMean.contains(mean) && deviation >= minimumContrast
    }
}
