import Glibc
import Testing
@testable import Imaging

/// A fresh folder under /tmp, removed by `remove()`.
struct ScratchFolder {
    let path: String

    init() {
        var template = Array("/tmp/fpmod-imaging-XXXXXX".utf8CString)
        path = String(cString: mkdtemp(&template)!)
    }

    func file(_ name: String) -> String { "\(path)/\(name)" }

    func remove() {
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { unlink(file(name)) }
            }
            closedir(directory)
        }
        rmdir(path)
    }
}

/// The error `body` throws, when it is an `E`; records an issue and returns nil otherwise.
/// (Swift Testing returns the error from `#expect(throws:)` only from Swift 6.1 on.)
func expectThrows<E: Error, R>(
    _ type: E.Type, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) -> E? {
    do {
        _ = try body()
        Issue.record("expected an error of type \(E.self), but nothing was thrown", sourceLocation: sourceLocation)
        return nil
    } catch let error as E {
        return error
    } catch {
        Issue.record("expected an error of type \(E.self), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// A gradient with a mark, so that moves and turns show.
func testPattern(width: Int = 40, height: Int = 30) -> GreyImage {
    var image = GreyImage(width: width, height: height, filledWith: 0)
    for y in 0..<height { for x in 0..<width { image[x, y] = UInt8((x * 5 + y * 3) % 256) } }
    return image
}

func meanAbsoluteDifference(_ a: GreyImage, _ b: GreyImage, inset: Int) -> Double {
    var total = 0.0, count = 0
    for y in inset..<(a.height - inset) {
        for x in inset..<(a.width - inset) {
            total += abs(Double(a[x, y]) - Double(b[x, y]))
            count += 1
        }
    }
    return total / Double(count)
}
