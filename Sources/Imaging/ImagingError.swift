/// Why an image could not be read, written or made.
public enum ImagingError: Error, Equatable, CustomStringConvertible {
    case emptyImage(width: Int, height: Int)
    case pixelCountMismatch(width: Int, height: Int, count: Int)
    case unreadablePNG(path: String, reason: String)
    case unwritablePNG(path: String, reason: String)
    case tooLarge(width: Int, height: Int, limit: Int)

    public var description: String {
        switch self {
        case let .emptyImage(width, height):
            "an image of \(width)×\(height) pixels has no pixels; give both sides at least 1"
        case let .pixelCountMismatch(width, height, count):
            "\(count) pixel values for a \(width)×\(height) image; it needs exactly \(width * height)"
        case let .unreadablePNG(path, reason):
            "cannot read the PNG file \(path): \(reason); give a readable PNG image (any bit depth or colour type)"
        case let .unwritablePNG(path, reason):
            "cannot write the PNG file \(path): \(reason); check that its folder exists and is writable"
        case let .tooLarge(width, height, limit):
            "the image is \(width)×\(height) pixels, more than \(limit) on a side; a fingerprint image is a few hundred pixels, so scale it down first"
        }
    }
}
