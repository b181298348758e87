/// The shape of a Minutia Cylinder-Code and of its comparison (Cappelli, Ferrara, Maltoni,
/// "Minutia Cylinder-Code", IEEE TPAMI 32(12), 2010; the names in brackets are the paper's).
/// Distances are pixels at about 500 dpi.
public struct CylinderParameters: Sendable, Equatable {
    /// The cylinder's radius [R]: how far around a minutia its neighbours are described.
    public var radius: Float = 70
    /// Cells along each side of the cylinder's base [NS].
    public var cellsPerSide = 8
    /// Sections of the direction axis [ND].
    public var angularSections = 6
    /// Spread of a neighbour's contribution in space [σS] and in direction [σD].
    public var spatialSigma: Float = 28 / 3
    public var directionalSigma: Float = 2 * .pi / 9
    /// A cell's bit is set when its contribution exceeds this [μΨ of the bit-based form].
    public var contributionThreshold: Float = 0.01
    /// A cylinder is kept when this share of its disc's cells lie on the print [minVC], and it
    /// has at least `minimumNeighbours` minutiae around it [minM].
    public var minimumValidShare: Float = 0.25
    public var minimumNeighbours = 2
    /// Two cylinders are compared only when this share of a disc's cells is valid in both [minME].
    public var minimumMatchableShare: Float = 0.25
    /// …and their minutiae point within this angle of each other [δθ].
    public var maximumDirectionDifference: Float = .pi / 2

    /// Consolidation (LSS-R): how many of the best local pairs decide the score [minNP, maxNP],
    /// growing with the smaller template's size through a sigmoid [μP, τP].
    public var minimumPairs = 4
    public var maximumPairs = 12
    public var pairsMidpoint: Float = 30
    public var pairsSlope: Float = 0.4
    /// Relaxation: iterations [nrel], the weight of a pair's own similarity [wR], and the
    /// sigmoids that say how well two pairs agree in distance, direction and radial angle.
    public var relaxationRounds = 5
    public var relaxationWeight: Float = 0.5
    public var distanceMidpoint: Float = 5, distanceSlope: Float = -1.6
    public var directionMidpoint: Float = .pi / 12, directionSlope: Float = -30
    public var radialMidpoint: Float = .pi / 12, radialSlope: Float = -30

    public static let standard = CylinderParameters()

    public init() {}

    /// Side of one cell [ΔS].
    var cellSide: Float { 2 * radius / Float(cellsPerSide) }
    /// Width of one direction section [ΔD].
    var sectionWidth: Float { 2 * .pi / Float(angularSections) }
    /// Bits of one cylinder, and the 64-bit words that hold them.
    var bitCount: Int { cellsPerSide * cellsPerSide * angularSections }
    var wordCount: Int { (bitCount + 63) / 64 }
}
