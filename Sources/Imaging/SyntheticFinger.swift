import Glibc

/// A made-up fingerprint, the same for the same seed: for a simulated image sensor without image
/// files, and for matcher tests that must run where no real prints are installed.
///
/// Ridges follow the phase model of Larkin and Fletcher ("A coherent framework for fingerprint
/// analysis: are fingerprints holograms?", Optics Express 2007): grey = cos(phase), where a
/// smooth phase gives the ridge flow and each spiral term ±atan2 around a point adds exactly one
/// minutia there (a ridge ending or a bifurcation, by its sign). The smooth part is a whorl-like
/// set of ellipses around a core, bent by a tilt, with the core, shape and tilt drawn from the
/// seed; the minutiae are scattered at least `minimumSpacing` apart. Not a model of real finger
/// statistics; a pattern with ridge spacing and minutiae the matcher treats as a finger.
public struct SyntheticFinger: Sendable {
    public let seed: UInt64
    public var width = 256
    public var height = 256
    /// Ridge period in pixels: 9 px at 500 dpi is a ridge every 0.46 mm, as on adult fingers.
    public var ridgePeriod = 9.0
    /// About 25 fall in a 192×192 (FPC1020) window, roughly what such a window of a real finger holds.
    public var minutiaeCount = 45
    public var minimumSpacing = 18.0

    public init(seed: UInt64) { self.seed = seed }

    public func image() -> GreyImage {
        var generator = SeededGenerator(seed: seed ^ 0x5EED_F1E6_E4)
        let w = Double(width), h = Double(height)
        let coreX = w * Double.random(in: 0.35...0.65, using: &generator)
        let coreY = h * Double.random(in: 0.35...0.65, using: &generator)
        let squash = Double.random(in: 0.4...1.6, using: &generator)
        let tiltX = Double.random(in: -0.6...0.6, using: &generator)
        let tiltY = Double.random(in: -0.6...0.6, using: &generator)
        let minutiae = scatter(using: &generator)
        let frequency = 2 * Double.pi / ridgePeriod
        var out = GreyImage(width: width, height: height, filledWith: 255)
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x) - coreX, dy = Double(y) - coreY
                var phase = frequency * ((dx * dx + squash * dy * dy).squareRoot() + tiltX * dx + tiltY * dy)
                for minutia in minutiae {
                    phase += minutia.sign * atan2(Double(y) - minutia.y, Double(x) - minutia.x)
                }
                out[x, y] = UInt8(clamping: 128 + 100 * cos(phase))
            }
        }
        return out
    }

    private func scatter(using generator: inout SeededGenerator) -> [(x: Double, y: Double, sign: Double)] {
        var points: [(x: Double, y: Double, sign: Double)] = []
        var attempts = 0
        while points.count < minutiaeCount && attempts < minutiaeCount * 50 {
            attempts += 1
            let x = Double.random(in: 0..<Double(width), using: &generator)
            let y = Double.random(in: 0..<Double(height), using: &generator)
            let farEnough = points.allSatisfy { ($0.x - x) * ($0.x - x) + ($0.y - y) * ($0.y - y) >= minimumSpacing * minimumSpacing }
            if farEnough { points.append((x, y, Bool.random(using: &generator) ? 1 : -1)) }
        }
        return points
    }
}
