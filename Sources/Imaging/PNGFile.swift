import CPNG

/// PNG files through libpng's simplified API, which does every conversion to 8-bit grey itself
/// (RGB by its luminance, palettes, 16-bit, 1/2/4-bit) and needs no setjmp error handling.
public enum PNGFile {
    /// Larger than any fingerprint image; keeps a hostile file from asking for gigabytes.
    public static let maximumSide = 4096

    /// Reads `path` as 8-bit grey. An alpha channel is dropped, not composited: sensor images
    /// have none, and the NIST prints Debian ships carry a copy of the grey levels in it as a
    /// mask (composited on white they would wash out to near-white and lose their ridges).
    public static func read(_ path: String) throws(ImagingError) -> GreyImage {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw .unreadablePNG(path: path, reason: message(of: &image))
        }
        let width = Int(image.width), height = Int(image.height)
        guard width <= maximumSide, height <= maximumSide else {
            png_image_free(&image)
            throw .tooLarge(width: width, height: height, limit: maximumSide)
        }
        let hasAlpha = image.format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0
        let channels = hasAlpha ? 2 : 1
        image.format = hasAlpha ? UInt32(PNG_FORMAT_GA) : UInt32(PNG_FORMAT_GRAY)
        // libpng's alpha handling for GA output premultiplies only with the linear flag, which
        // is not set here, so the grey channel comes out as stored.
        var samples = [UInt8](repeating: 255, count: width * height * channels)
        let finished = samples.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, nil, buffer.baseAddress, png_int_32(width * channels), nil)
        }
        guard finished != 0 else {
            let reason = message(of: &image)
            png_image_free(&image)
            throw .unreadablePNG(path: path, reason: reason)
        }
        let pixels = hasAlpha ? Swift.stride(from: 0, to: samples.count, by: 2).map { samples[$0] } : samples
        return try GreyImage(width: width, height: height, pixels: pixels)
    }

    /// Writes `image` to `path` as an 8-bit grey PNG, replacing what is there.
    public static func write(_ image: GreyImage, to path: String) throws(ImagingError) {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        png.format = UInt32(PNG_FORMAT_GRAY)
        let written = image.pixels.withUnsafeBytes { buffer in
            png_image_write_to_file(&png, path, 0, buffer.baseAddress, png_int_32(image.width), nil)
        }
        guard written != 0 else {
            let reason = message(of: &png)
            png_image_free(&png)
            throw .unwritablePNG(path: path, reason: reason)
        }
    }

    /// libpng's own words for what went wrong (a NUL-terminated `char[64]` in the struct).
    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return bytes.isEmpty ? "libpng gave no reason" : String(decoding: bytes, as: UTF8.self)
        }
    }
}
