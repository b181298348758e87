/// One ridge feature of a fingerprint: position on the sensor grid, direction and kind.
public struct Minutia: Equatable, Hashable, Sendable {
    public var x: UInt8
    public var y: UInt8
    /// Direction in 1/64 turns (0…63).
    public var angle: UInt8
    /// 0 = ridge ending, 1 = bifurcation.
    public var kind: UInt8

    public init(x: UInt8, y: UInt8, angle: UInt8, kind: UInt8) {
        self.x = x
        self.y = y
        self.angle = angle & 0x3F
        self.kind = kind & 0x03
    }

    /// True when two records plausibly describe the same feature seen in two captures.
    func isNear(_ other: Minutia) -> Bool {
        let dx = abs(Int(x) - Int(other.x)), dy = abs(Int(y) - Int(other.y))
        let turn = abs(Int(angle) - Int(other.angle))
        return dx <= 4 && dy <= 4 && min(turn, 64 - turn) <= 3
    }
}

/// How well a finger is placed for one capture.
public enum CaptureQuality: String, Sendable, Codable, CaseIterable {
    /// A normal press: most features visible.
    case good
    /// A partial press: only one side of the finger touches the sensor.
    case partial
    /// A smudged or dry press: too few features to extract (Img2Tz answers `07`).
    case poor
}

/// A named virtual finger. The same name always yields the same set of minutiae (seeded from a
/// stable hash of the name); every capture sees a different noisy subset of them, so two
/// captures of one finger match with a varying score and two fingers practically never do.
public struct VirtualFinger: Equatable, Sendable {
    public let name: String
    /// Every feature the finger has, in sensor coordinates (0…255 both ways).
    public let minutiae: [Minutia]
    /// Core of the ridge pattern, for the synthetic image.
    public let core: (x: Double, y: Double)
    /// Ridge period and whorl shape, for the synthetic image.
    public let ridgePeriod: Double
    public let ellipse: Double

    public init(name: String) {
        self.name = name
        var random = SeededRandom(name: "finger:" + name)
        let count = Int.random(in: 32...44, using: &random)
        var points: [Minutia] = []
        while points.count < count {
            let candidate = Minutia(x: UInt8.random(in: 24...231, using: &random),
                                    y: UInt8.random(in: 24...231, using: &random),
                                    angle: UInt8.random(in: 0...63, using: &random),
                                    kind: UInt8.random(in: 0...1, using: &random))
            // Keep features apart so capture jitter never confuses two of them.
            if !points.contains(where: { abs(Int($0.x) - Int(candidate.x)) < 12 && abs(Int($0.y) - Int(candidate.y)) < 12 }) {
                points.append(candidate)
            }
        }
        minutiae = points
        core = (Double.random(in: 0.4...0.6, using: &random), Double.random(in: 0.35...0.55, using: &random))
        ridgePeriod = Double.random(in: 7.5...9.5, using: &random)
        ellipse = Double.random(in: 0.7...1.3, using: &random)
    }

    public static func == (lhs: VirtualFinger, rhs: VirtualFinger) -> Bool { lhs.name == rhs.name }

    /// The features one capture sees: a quality-dependent subset, each jittered by a pixel or two.
    public func capture(quality: CaptureQuality, using random: inout SeededRandom) -> [Minutia] {
        let keep: ClosedRange<Double>
        switch quality {
        case .good: keep = 0.72...0.95
        case .partial: keep = 0.85...1.0
        case .poor: keep = 0.08...0.15
        }
        let fraction = Double.random(in: keep, using: &random)
        var seen: [Minutia] = []
        for point in minutiae {
            if quality == .partial && point.y > 140 { continue }
            guard Double.random(in: 0..<1, using: &random) < fraction else { continue }
            seen.append(Minutia(
                x: UInt8(clamping: Int(point.x) + Int.random(in: -2...2, using: &random)),
                y: UInt8(clamping: Int(point.y) + Int.random(in: -2...2, using: &random)),
                angle: UInt8((Int(point.angle) + Int.random(in: -1...1, using: &random) + 64) % 64),
                kind: point.kind))
        }
        // A poor press never shows enough features to extract (Img2Tz `07`).
        return quality == .poor ? Array(seen.prefix(Matcher.minimumFeatures - 3)) : seen
    }
}
