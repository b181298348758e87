/// An 8-bit grey image as a sensor delivers it: row by row, `width` pixels a row, 0 black.
/// (The lead may unify this with the imaging target's type; it carries nothing else.)
public struct SensorImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public var pixels: [UInt8]

    /// nil unless `pixels` holds exactly `width × height` values.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        guard width > 0, height > 0, pixels.count == width * height else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    public subscript(x: Int, y: Int) -> UInt8 { pixels[y * width + x] }
}
