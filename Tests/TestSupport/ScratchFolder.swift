import Glibc

/// A fresh folder under /tmp, removed with everything in it by `remove()`.
public struct ScratchFolder: Sendable {
    public let path: String

    public init(prefix: String = "fpmod-test") {
        var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
        path = String(cString: mkdtemp(&template)!)
    }

    public func file(_ name: String) -> String { "\(path)/\(name)" }

    public func remove() { Self.removeTree(path) }

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
