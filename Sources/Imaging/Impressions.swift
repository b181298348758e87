/// Several impressions of one finger made from one master image: each turned, moved, cut to the
/// sensor's window and given sensor noise, as separate touches of a real sensor differ. The
/// same seed gives the same impressions, so measurements and tests repeat exactly.
public struct ImpressionMaker: Sendable {
    public var sensorWidth = 192
    public var sensorHeight = 192
    /// Largest turn either way, degrees.
    public var maximumRotation = 15.0
    /// Largest move along each axis, pixels.
    public var maximumShift = 12
    /// Standard deviation of the added noise, grey levels.
    public var noiseSigma = 8.0

    public init() {}

    /// Impression number `index` of `master` for `seed`.
    public func impression(of master: GreyImage, index: Int, seed: UInt64) -> GreyImage {
        var generator = SeededGenerator(seed: seed &* 1_000_003 &+ UInt64(index))
        let angle = Double.random(in: -maximumRotation...maximumRotation, using: &generator)
        let dx = Int.random(in: -maximumShift...maximumShift, using: &generator)
        let dy = Int.random(in: -maximumShift...maximumShift, using: &generator)
        return master.rotated(degrees: angle)
            .shifted(dx: dx, dy: dy)
            .fitted(width: sensorWidth, height: sensorHeight)
            .withNoise(sigma: noiseSigma, seed: generator.next())
    }

    public func impressions(of master: GreyImage, count: Int, seed: UInt64) -> [GreyImage] {
        (0..<count).map { impression(of: master, index: $0, seed: seed) }
    }
}
