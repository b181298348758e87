/// Which pixels of a print lie on a ridge (the enhanced image's dark side, cleaned of specks and
/// pores, before thinning): what the comparison's last step lays one impression's ridges on the
/// other's with, where the minutiae alone leave a stranger's placement looking as good as the
/// finger's own.
///
/// Kept as tiles of 8 × 8 pixels, one `UInt64` each (bit (y mod 8) × 8 + (x mod 8)), tile rows
/// from the top left: 1 bit a pixel, a tile a word, so a lookup is one load and a shift, and
/// the tiles off the print (all 0) cost a template nothing (`TemplateCoding` keeps only the
/// others).
public struct RidgeMap: Sendable, Equatable {
    public static let tileSide = 8
    public let width: Int
    public let height: Int
    public private(set) var tiles: [UInt64]

    /// Unknown ridges: a print that came without them (the comparison then leaves them out).
    public static let none = RidgeMap(width: 0, height: 0, tiles: [])

    public var isEmpty: Bool { tiles.isEmpty }
    public var tilesAcross: Int { (width + Self.tileSide - 1) / Self.tileSide }
    public var tilesDown: Int { (height + Self.tileSide - 1) / Self.tileSide }

    public init(width: Int, height: Int, tiles: [UInt64]) {
        precondition(width >= 0 && height >= 0, "a size is never negative")
        precondition(tiles.count == (width + 7) / 8 * ((height + 7) / 8), "one tile per 8 × 8 pixels")
        self.width = width
        self.height = height
        self.tiles = tiles
    }

    /// A map of `width` × `height` from one byte per pixel (row by row, non-zero where ridge),
    /// keeping only the pixels `keep` says are on the print.
    public init(width: Int, height: Int, pixels: [UInt8], keep: (_ x: Int, _ y: Int) -> Bool) {
        precondition(pixels.count == width * height, "one byte per pixel")
        let across = (width + 7) / 8
        var tiles = [UInt64](repeating: 0, count: across * ((height + 7) / 8))
        for y in 0..<height {
            for x in 0..<width where pixels[y * width + x] != 0 && keep(x, y) {
                tiles[(y >> 3) * across + (x >> 3)] |= 1 << UInt64((y & 7) << 3 | (x & 7))
            }
        }
        self.init(width: width, height: height, tiles: tiles)
    }

    /// Whether pixel (x, y) is ridge; false outside the image.
    public func isRidge(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < width, y < height else { return false }
        return tiles[(y >> 3) * tilesAcross + (x >> 3)] >> UInt64((y & 7) << 3 | (x & 7)) & 1 == 1
    }
}
