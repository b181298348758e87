/// One ridge ending or bifurcation found in an image: where it is, which way its ridge runs,
/// and how sure the extractor is of it.
///
/// Coordinates are pixels of the image it came from, x to the right and y downwards (the image's
/// own convention, not NIST's). `angle` is in radians, 0 ..< 2π, measured from +x towards +y,
/// and points along the ridge away from the minutia for an ending, and along the valley that
/// splits for a bifurcation, so both kinds of one point turn into each other under a change of
/// pressure (an ending becomes a bifurcation when the ink flips) and keep their angle.
public struct RidgeMinutia: Sendable, Equatable {
    public enum Kind: UInt8, Sendable {
        case ending = 1
        case bifurcation = 2
    }

    public var x: Float
    public var y: Float
    public var angle: Float
    public var kind: Kind
    /// 0 … 1: how clear the ridges around it are (the local orientation's coherence and the
    /// distance from the print's border).
    public var quality: Float

    public init(x: Float, y: Float, angle: Float, kind: Kind, quality: Float) {
        self.x = x
        self.y = y
        self.angle = angle
        self.kind = kind
        self.quality = quality
    }
}
