import CPNG
import Glibc
import Testing
@testable import Imaging
import TestSupport

/// Real PNG files written and read back, in the colour types a user's image folder may hold.
@Suite struct PNGFileTests {
    @Test func greyImageRoundTripsExactly() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let image = testPattern()
        try PNGFile.write(image, to: folder.file("grey.png"))
        #expect(try PNGFile.read(folder.file("grey.png")) == image)
    }

    @Test func rgbIsReadAsItsGreyLevel() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        // Black, white, mid grey, pure green (brighter than pure blue to the eye, and to libpng).
        let rgb: [UInt8] = [0, 0, 0, 255, 255, 255, 128, 128, 128, 0, 255, 0, 0, 0, 255]
        try writeRaw(rgb, width: 5, format: UInt32(PNG_FORMAT_RGB), to: folder.file("rgb.png"))
        let grey = try PNGFile.read(folder.file("rgb.png"))
        #expect(grey.width == 5 && grey.height == 1)
        #expect(grey.pixels[0] == 0 && grey.pixels[1] == 255)
        #expect(abs(Int(grey.pixels[2]) - 128) <= 1)
        #expect(grey.pixels[3] > grey.pixels[4])
    }

    @Test func sixteenBitIsReadAsEightBit() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let levels: [UInt16] = [0, 16_384, 65_535]
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = 3
        png.height = 1
        png.format = UInt32(PNG_FORMAT_LINEAR_Y)
        let ok = levels.withUnsafeBytes { png_image_write_to_file(&png, folder.file("16.png"), 0, $0.baseAddress, 0, nil) }
        #expect(ok != 0)
        let grey = try PNGFile.read(folder.file("16.png"))
        #expect(grey.pixels.first == 0 && grey.pixels.last == 255)
        #expect(grey.pixels[1] > 0 && grey.pixels[1] < 255)
    }

    @Test func paletteIsReadThroughItsColours() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let colourMap: [UInt8] = [255, 255, 255, 0, 0, 0]  // entry 0 white, entry 1 black
        let indices: [UInt8] = [1, 0, 0, 1]
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = 4
        png.height = 1
        png.format = UInt32(PNG_FORMAT_RGB) | UInt32(PNG_FORMAT_FLAG_COLORMAP)
        png.colormap_entries = 2
        let ok = indices.withUnsafeBytes { pixels in
            colourMap.withUnsafeBytes { png_image_write_to_file(&png, folder.file("palette.png"), 0, pixels.baseAddress, 0, $0.baseAddress) }
        }
        #expect(ok != 0)
        #expect(try PNGFile.read(folder.file("palette.png")).pixels == [0, 255, 255, 0])
    }

    @Test func alphaIsDroppedNotComposited() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        // Grey 50 with alpha 0: composited on white this would read 255.
        try writeRaw([50, 0, 200, 255], width: 2, format: UInt32(PNG_FORMAT_GA), to: folder.file("ga.png"))
        #expect(try PNGFile.read(folder.file("ga.png")).pixels == [50, 200])
    }

    @Test func aFileThatIsNotPNGIsRefusedByName() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("notes.png")
        let text = Array("not an image\n".utf8)
        let fd = open(path, O_CREAT | O_WRONLY, 0o600)
        _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let error = expectThrows(ImagingError.self) { try PNGFile.read(path) }
        guard case .unreadablePNG(let named, _) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(named == path)
        #expect(expectThrows(ImagingError.self) { try PNGFile.read(folder.file("missing.png")) } != nil)
    }

    @Test func writingIntoAMissingFolderFailsWithThePath() {
        let error = expectThrows(ImagingError.self) { try PNGFile.write(testPattern(), to: "/nonexistent-fpmod/x.png") }
        #expect(error?.description.contains("/nonexistent-fpmod/x.png") == true)
    }

    private func writeRaw(_ bytes: [UInt8], width: Int, format: UInt32, to path: String) throws {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        png.width = UInt32(width)
        png.height = 1
        png.format = UInt32(format)
        let ok = bytes.withUnsafeBytes { png_image_write_to_file(&png, path, 0, $0.baseAddress, 0, nil) }
        #expect(ok != 0)
    }
}
