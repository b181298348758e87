/// An 8-bit grey image, row by row from the top left: what a capacitive sensor returns and what
/// the matcher reads. 0 is black (ridge), 255 white (valley, or no finger).
public struct GreyImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public var pixels: [UInt8]

    /// Fails when `pixels` does not hold exactly `width × height` values.
    public init(width: Int, height: Int, pixels: [UInt8]) throws(ImagingError) {
        guard width > 0, height > 0 else { throw .emptyImage(width: width, height: height) }
        guard pixels.count == width * height else {
            throw .pixelCountMismatch(width: width, height: height, count: pixels.count)
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A `width × height` image of one grey level.
    public init(width: Int, height: Int, filledWith level: UInt8) {
        precondition(width > 0 && height > 0, "an image has at least one pixel")
        self.width = width
        self.height = height
        self.pixels = [UInt8](repeating: level, count: width * height)
    }

    public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }

    /// The grey level at a fractional position, interpolated between the four nearest pixels;
    /// nil outside the image (so a transform can fill what it uncovers).
    public func bilinear(x: Double, y: Double) -> Double? {
        guard x >= 0, y >= 0, x <= Double(width - 1), y <= Double(height - 1) else { return nil }
        let x0 = Int(x), y0 = Int(y)
        let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
        let fx = x - Double(x0), fy = y - Double(y0)
        let top = Double(self[x0, y0]) * (1 - fx) + Double(self[x1, y0]) * fx
        let bottom = Double(self[x0, y1]) * (1 - fx) + Double(self[x1, y1]) * fx
        return top * (1 - fy) + bottom * fy
    }
}

extension UInt8 {
    /// `value` rounded and clamped into 0…255.
    init(clamping value: Double) {
        self = value <= 0 ? 0 : value >= 255 ? 255 : UInt8(value.rounded())
    }
}
