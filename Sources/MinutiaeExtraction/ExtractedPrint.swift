/// Everything the matcher takes from one image: the minutiae, where the print is (so a
/// comparison knows which part of the finger each side could see), and how good the image is.
public struct ExtractedPrint: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var minutiae: [RidgeMinutia]
    /// The print's area: one flag per `blockSize` × `blockSize` block, row by row from the top
    /// left, true where ridges were found (the rest is background, smudge or the sensor's edge).
    public var blockSize: Int
    public var blocksAcross: Int
    public var blocksDown: Int
    public var foreground: [Bool]
    /// The ridges' direction in each block, 0 ..< π from +x towards +y (meaningful on the print
    /// only); empty when unknown. Two touches of one finger laid on each other agree on it
    /// wherever both saw the print; a stranger's minutiae that happen to line up rarely do.
    public var orientations: [Float]
    /// Which pixels are ridge, on the print (`RidgeMap`); `.none` when unknown.
    public var ridges: RidgeMap
    public var quality: PrintQuality

    public init(width: Int, height: Int, minutiae: [RidgeMinutia], blockSize: Int, blocksAcross: Int,
                blocksDown: Int, foreground: [Bool], orientations: [Float] = [], ridges: RidgeMap = .none, quality: PrintQuality) {
        precondition(foreground.count == blocksAcross * blocksDown, "one foreground flag per block")
        precondition(orientations.isEmpty || orientations.count == foreground.count, "one direction per block, or none")
        precondition(ridges.isEmpty || (ridges.width == width && ridges.height == height), "a ridge map of the image, or none")
        self.width = width
        self.height = height
        self.minutiae = minutiae
        self.blockSize = blockSize
        self.blocksAcross = blocksAcross
        self.blocksDown = blocksDown
        self.foreground = foreground
        self.orientations = orientations
        self.ridges = ridges
        self.quality = quality
    }

    /// Whether the pixel (x, y) lies in the print's area; false outside the image.
    public func isForeground(x: Float, y: Float) -> Bool {
        guard x >= 0, y >= 0 else { return false }
        let column = Int(x) / blockSize, row = Int(y) / blockSize
        guard column < blocksAcross, row < blocksDown else { return false }
        return foreground[row * blocksAcross + column]
    }
}

/// An NFIQ-like score of one capture, 0 (useless) … 100 (clear and large), and what it is made of,
/// so an enrollment can say why it refused a touch.
public struct PrintQuality: Sendable, Equatable {
    public var score: Int
    /// Share of the image that holds print (the foreground blocks).
    public var area: Float
    /// Mean orientation coherence over the print, 0 … 1: how clearly the ridges run one way.
    public var clarity: Float

    public init(score: Int, area: Float, clarity: Float) {
        self.score = score
        self.area = area
        self.clarity = clarity
    }
}
