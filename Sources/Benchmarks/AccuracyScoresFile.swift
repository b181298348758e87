import Foundation
import JSONValue
import MatcherAccuracy
import PrintableText

/// Every pair's score of an accuracy run, kept (`--save-scores`) so that a later run of a changed
/// matcher can be compared with it pair by pair (`--against`): the same fingers drawn again for
/// both runs tell a real gain from the luck of ten fingers (`FingerResampling.change`).
public enum AccuracyScoresFile {
    static let format = "fpmod accuracy scores"
    static let version = 1
    /// A run of four 80-image sets is ~0.3 MB; far more is not a file this wrote.
    static let largest = 64 << 20

    public struct Run: Sendable {
        /// "full" or "fpc1020", as the report's JSON names the window.
        public let window: String
        public let databases: [String: PairScores]
    }

    public static func json(window: String, databases: [(name: String, scores: PairScores)]) -> JSONValue {
        .object([
            "format": .string(format), "version": .int(Int64(version)), "window": .string(window),
            "databases": .array(databases.map { entry in
                let count = entry.scores.images
                var flat: [JSONValue] = []
                flat.reserveCapacity(count * (count - 1) / 2)
                for a in 0..<count {
                    for b in (a + 1)..<count { flat.append(entry.scores.matrix[a][b].map { .double($0) } ?? .null) }
                }
                return .object(["database": .string(entry.name), "impressions": .int(Int64(entry.scores.impressions)),
                                "images": .int(Int64(count)), "scores": .array(flat)])
            }),
        ])
    }

    /// Refuses before any measuring: a file that is not there, not this format, or not whole.
    public static func read(_ path: String) throws(BenchError) -> Run {
        func refused(_ why: String) -> BenchError {
            BenchError(.usage, "--against \(Printable.escaped(path)): \(why); give a file an earlier `fpmod bench accuracy … --save-scores FILE` wrote.")
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let size = attributes?[.size] as? Int else { throw refused("cannot read it") }
        guard size <= largest else { throw refused("it is \(size) bytes, more than a run's scores can be") }
        guard let data = FileManager.default.contents(atPath: path) else { throw refused("cannot read it") }
        let value: JSONValue
        do { value = try JSONValue(parsing: [UInt8](data)) } catch { throw refused("it is not JSON (\(error))") }
        guard value["format"]?.stringValue == format else { throw refused("it is not a file of accuracy scores") }
        guard value["version"]?.intValue == version else { throw refused("it is of another version of this format") }
        guard let window = value["window"]?.stringValue, let entries = value["databases"]?.arrayValue else { throw refused("it has no window or no databases") }
        var databases: [String: PairScores] = [:]
        for entry in entries {
            guard let name = entry["database"]?.stringValue, let impressions = entry["impressions"]?.intValue,
                  let images = entry["images"]?.intValue, let flat = entry["scores"]?.arrayValue,
                  images >= 2, images <= 10_000, flat.count == images * (images - 1) / 2 else {
                throw refused("a database's entry is incomplete")
            }
            var matrix = Array(repeating: [Double?](repeating: nil, count: images), count: images)
            var next = 0
            for a in 0..<images {
                for b in (a + 1)..<images {
                    if case .null = flat[next] {} else {
                        guard let score = flat[next].numberValue else { throw refused("\(Printable.escaped(name)) has a score that is not a number") }
                        matrix[a][b] = score
                    }
                    next += 1
                }
            }
            guard let scores = PairScores(matrix: matrix, impressions: impressions) else {
                throw refused("\(Printable.escaped(name))'s \(images) images are not whole fingers of \(impressions) impressions")
            }
            databases[name] = scores
        }
        return Run(window: window, databases: databases)
    }
}
