/// One ridge ending or bifurcation as NBIS reports it (libfprint's `xyt_struct` rows): position
/// in pixels (NIST convention, y grows upwards) and ridge direction in whole degrees, -180...180.
public struct Minutia: Sendable, Equatable {
    public var x: Int32
    public var y: Int32
    public var theta: Int32

    public init(x: Int32, y: Int32, theta: Int32) {
        self.x = x
        self.y = y
        self.theta = theta
    }
}
