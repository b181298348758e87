/// Whether an image holds a finger: the image is cut into square blocks, and a block counts as
/// covered when its pixels spread like ridges and valleys (standard deviation at least
/// `minimumContrast`) around a mean that is neither white nor black (`usableMean`). An empty
/// capacitive sensor reads nearly flat; a finger placed on half of it covers half the blocks.
public struct FingerCoverage: Sendable, Equatable {
    /// Block side in pixels (24 cuts the FPC1020's 192×192 into 8 × 8 blocks; a ridge period
    /// at 508 dpi is 8–10 pixels, so a block spans two or three ridges).
    public var blockSize: Int
    /// Standard deviation, in grey levels, a block needs to count as covered.
    public var minimumContrast: Double
    /// Mean grey a covered block stays within (saturated blocks are not ridges).
    public var usableMean: ClosedRange<Double>
    /// Share of blocks that must be covered.
    public var minimumCoverage: Double

    public init(blockSize: Int = 24, minimumContrast: Double = 12, usableMean: ClosedRange<Double> = 20...235, minimumCoverage: Double = 0.5) {
        self.blockSize = blockSize
        self.minimumContrast = minimumContrast
        self.usableMean = usableMean
        self.minimumCoverage = minimumCoverage
    }

    public struct Result: Sendable, Equatable, CustomStringConvertible {
        public var coveredBlocks: Int
        public var totalBlocks: Int
        public var required: Double
        public var coverage: Double { totalBlocks == 0 ? 0 : Double(coveredBlocks) / Double(totalBlocks) }
        public var holdsFinger: Bool { totalBlocks > 0 && coverage >= required }

        public var description: String {
            "\(coveredBlocks) of \(totalBlocks) blocks show ridges (\(Int((coverage * 100).rounded())) %, \(Int((required * 100).rounded())) % needed)"
        }
    }

    public func evaluate(_ image: SensorImage) -> Result {
        let columns = image.width / blockSize
        let rows = image.height / blockSize
        var covered = 0
        for blockRow in 0..<rows {
            for blockColumn in 0..<columns where isCovered(image, x0: blockColumn * blockSize, y0: blockRow * blockSize) {
                covered += 1
            }
        }
        return Result(coveredBlocks: covered, totalBlocks: rows * columns, required: minimumCoverage)
    }

    private func isCovered(_ image: SensorImage, x0: Int, y0: Int) -> Bool {
        var sum = 0.0
        var squares = 0.0
        for y in y0..<y0 + blockSize {
            let row = y * image.width
            for x in x0..<x0 + blockSize {
                let value = Double(image.pixels[row + x])
                sum += value
                squares += value * value
            }
        }
        let count = Double(blockSize * blockSize)
        let mean = sum / count
        let variance = max(0, squares / count - mean * mean)
        return usableMean.contains(mean) && variance.squareRoot() >= minimumContrast
    }
}
