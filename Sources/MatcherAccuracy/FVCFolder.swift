import Foundation

/// A folder of impressions named the FVC way, `NNN_K.png` (finger NNN, impression K), as
/// FVC2000–2006 publish them: which fingers it holds and each one's impressions in order.
public struct FVCFolder: Sendable, Equatable {
    public let path: String
    /// Finger number → impression number → file path; every finger has the same impressions.
    public let fingers: [Int]
    public let impressions: [Int]

    public func file(finger: Int, impression: Int) -> String { "\(path)/\(finger)_\(impression).png" }

    public init(path: String) throws(AccuracyError) {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: path) } catch {
            throw .unreadableFolder(path: path)
        }
        var found: [Int: Set<Int>] = [:]
        for name in names where name.lowercased().hasSuffix(".png") {
            let stem = name.dropLast(4).split(separator: "_", omittingEmptySubsequences: false)
            guard stem.count == 2, let finger = Int(stem[0]), let impression = Int(stem[1]), finger >= 0, impression >= 0 else {
                throw .badName(name: name, folder: path)
            }
            found[finger, default: []].insert(impression)
        }
        guard found.count >= 2 else { throw .tooFewFingers(folder: path, found: found.count) }
        let first = found.values.first!
        guard first.count >= 2, found.values.allSatisfy({ $0 == first }) else { throw .unevenImpressions(folder: path) }
        self.path = path
        fingers = found.keys.sorted()
        impressions = first.sorted()
    }

    /// The databases under `path`: itself when it holds images, else its subfolders that do
    /// (so `fpmod bench accuracy fvc2002` runs DB1_B … DB4_B).
    public static func databases(under path: String) throws(AccuracyError) -> [FVCFolder] {
        if let folder = try? FVCFolder(path: path) { return [folder] }
        let children: [String]
        do { children = try FileManager.default.contentsOfDirectory(atPath: path).sorted() } catch {
            throw .unreadableFolder(path: path)
        }
        var folders: [FVCFolder] = []
        for child in children where !child.hasPrefix(".") {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path + "/" + child, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            folders.append(try FVCFolder(path: path + "/" + child))
        }
        guard !folders.isEmpty else { throw .noImages(path: path) }
        return folders
    }
}

public enum AccuracyError: Error, Equatable, CustomStringConvertible {
    case unreadableFolder(path: String)
    case badName(name: String, folder: String)
    case tooFewFingers(folder: String, found: Int)
    case unevenImpressions(folder: String)
    case noImages(path: String)

    public var description: String {
        switch self {
        case .unreadableFolder(let path): "cannot read the folder \(path); give a folder of NNN_K.png images (finger NNN, impression K) or a folder of such folders"
        case let .badName(name, folder): "\(folder)/\(name) is not named NNN_K.png (finger NNN, impression K, as the FVC sets are); rename it or move it out"
        case let .tooFewFingers(folder, found): "\(folder) holds \(found) finger(s); the FVC protocol needs at least 2 fingers with 2 impressions each"
        case .unevenImpressions(let folder): "the fingers in \(folder) do not all have the same impressions (at least 2 each); the FVC protocol compares complete sets"
        case .noImages(let path): "\(path) holds no NNN_K.png images and no folders of them"
        }
    }
}
