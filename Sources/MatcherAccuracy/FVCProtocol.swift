import Imaging

/// What a matcher under test has to do: make each image ready (or refuse it: a failure to
/// extract), and score two prepared images.
public protocol PairScorer {
    var name: String { get }
    /// Makes image `index` ready; false when the matcher refuses it.
    mutating func prepare(_ index: Int, image: GreyImage) throws -> Bool
    /// Higher is more alike. Called only for prepared images.
    mutating func score(_ a: Int, _ b: Int) throws -> Double
}

/// Which part of each image the matcher sees.
public enum Window: Sendable, Equatable {
    /// The centre as a sensor of `side` × `side` pixels sees it (an FPC1020: 192).
    case sensor(side: Int)
    /// The whole image.
    case full

    public func apply(_ image: GreyImage) -> GreyImage {
        switch self {
        case .sensor(let side): image.centreCropped(width: side, height: side)
        case .full: image
        }
    }
}

/// The FVC protocol on one database: genuine pairs are every two impressions of one finger,
/// FVC's impostor pairs the first impressions of two fingers, and "all pairs" every two
/// impressions of different fingers (a finer estimate of rare false matches).
public struct PairScores: Sendable {
    public var genuine: [Double] = []
    public var fvcImpostor: [Double] = []
    public var allImpostor: [Double] = []
    /// Images the matcher refused (failure to extract), of all it was given.
    public var refused = 0
    public var images = 0
    /// Impressions per finger (the matrix's images are finger-major).
    public var impressions = 0
    /// scores[a][b] for a < b (image indices finger-major), nil where one was refused.
    public var matrix: [[Double?]] = []

    public init() {}

    /// Image index of (finger position, impression position).
    public static func index(finger: Int, impression: Int, impressions: Int) -> Int { finger * impressions + impression }

    /// Runs the protocol; `progress` hears how far it got now and then.
    public static func measure<S: PairScorer>(_ scorer: inout S, folder: FVCFolder, window: Window,
                                              progress: (String) -> Void = { _ in }) throws -> PairScores {
        let fingers = folder.fingers.count, impressions = folder.impressions.count, count = fingers * impressions
        var result = PairScores()
        result.images = count
        result.impressions = impressions
        var ready = [Bool](repeating: false, count: count)
        for (f, finger) in folder.fingers.enumerated() {
            for (k, impression) in folder.impressions.enumerated() {
                let image = window.apply(try PNGFile.read(folder.file(finger: finger, impression: impression)))
                let index = Self.index(finger: f, impression: k, impressions: impressions)
                ready[index] = try scorer.prepare(index, image: image)
                if !ready[index] { result.refused += 1 }
            }
        }
        progress("\(scorer.name): \(count - result.refused) of \(count) images ready, comparing…")
        result.matrix = Array(repeating: Array(repeating: nil, count: count), count: count)
        for a in 0..<count {
            for b in (a + 1)..<count where ready[a] && ready[b] { result.matrix[a][b] = try scorer.score(a, b) }
        }
        result.sortPairs()
        return result
    }

    /// The matrix's pairs into genuine, FVC's impostor and all-pairs impostor scores, in the
    /// matrix's order; a refused image takes part as a score below any real one (FVC counts it a
    /// non-match).
    mutating func sortPairs() {
        let refusedScore = -Double.greatestFiniteMagnitude
        for a in 0..<images {
            for b in (a + 1)..<images {
                let score = matrix[a][b] ?? refusedScore
                if a / impressions == b / impressions {
                    genuine.append(score)
                } else {
                    allImpostor.append(score)
                    if a % impressions == 0 && b % impressions == 0 { fvcImpostor.append(score) }
                }
            }
        }
    }
}

extension PairScores {
    /// The protocol's scores again from a matrix a run kept (`matrix[a][b]` for a < b, nil where
    /// an image was refused), so that two runs can be compared pair by pair; nil when the matrix
    /// is not square or its images are not whole fingers of `impressions`.
    public init?(matrix: [[Double?]], impressions: Int) {
        let count = matrix.count
        guard impressions >= 2, count >= 2 * impressions, count % impressions == 0, matrix.allSatisfy({ $0.count == count }) else { return nil }
        self.init()
        self.matrix = matrix
        self.impressions = impressions
        images = count
        // An image refused has no score with any other.
        var scored = [Bool](repeating: false, count: count)
        for a in 0..<count {
            for b in (a + 1)..<count where matrix[a][b] != nil {
                scored[a] = true
                scored[b] = true
            }
        }
        refused = scored.count { !$0 }
        sortPairs()
    }
}
