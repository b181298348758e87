import Glibc
import Testing

/// A fresh folder under /tmp, removed (with everything in it) by `remove()`.
struct ScratchFolder {
    let path: String

    init() {
        var template = Array("/tmp/fpmod-simsensor-XXXXXX".utf8CString)
        path = String(cString: mkdtemp(&template)!)
    }

    func remove() { Self.removeTree(path) }

    private static func removeTree(_ path: String) {
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name != "." && name != ".." { removeTree(path + "/" + name) }
            }
            closedir(directory)
            rmdir(path)
        } else {
            unlink(path)
        }
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

/// Small file operations for test fixtures.
enum Fixture {
    static func makeFolder(_ path: String) throws {
        guard mkdir(path, 0o755) == 0 else { throw TestFailure("mkdir \(path): errno \(errno)") }
    }

    static func write(_ text: String, to path: String) throws {
        guard let file = fopen(path, "w") else { throw TestFailure("fopen \(path): errno \(errno)") }
        defer { fclose(file) }
        guard fputs(text, file) >= 0 else { throw TestFailure("write \(path): errno \(errno)") }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
