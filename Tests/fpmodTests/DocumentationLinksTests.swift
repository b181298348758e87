import Foundation
import Testing

/// Issue 21, item 13: the README is the maker's path and the reference lives in docs/. Every
/// relative link of README.md and docs/*.md must reach a file of the repository (a page moved
/// without its links is a maker lost in minute one), and the README stays short enough to read.
@Suite struct DocumentationLinksTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func pages() throws -> [URL] {
        let docs = repository.appendingPathComponent("docs")
        let names = try FileManager.default.contentsOfDirectory(atPath: docs.path).filter { $0.hasSuffix(".md") }.sorted()
        return [repository.appendingPathComponent("README.md")] + names.map { docs.appendingPathComponent($0) }
    }

    /// The targets of `[text](target)` links that are not web addresses or anchors.
    static func relativeLinks(in text: String) throws -> [String] {
        let pattern = try NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        let range = NSRange(text.startIndex..., in: text)
        return pattern.matches(in: text, range: range).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }.filter { !$0.hasPrefix("http") && !$0.hasPrefix("#") && !$0.hasPrefix("mailto:") }
    }

    @Test func everyRelativeLinkReachesAFile() throws {
        var checked = 0
        for page in try Self.pages() {
            let text = try String(contentsOf: page, encoding: .utf8)
            for link in try Self.relativeLinks(in: text) {
                let path = String(link.split(separator: "#", maxSplits: 1).first ?? "")
                let target = page.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL.path
                #expect(FileManager.default.fileExists(atPath: target), "\(page.lastPathComponent) links to \(link), which does not exist")
                checked += 1
            }
        }
        #expect(checked >= 10, "the README should link its reference pages")
    }

    @Test func theReadmeIsTheMakersPath() throws {
        let text = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 400, "README.md has \(lines) lines; move reference material into docs/")
        // The maker's path, in order.
        let headings = ["## Quick start", "## Wiring", "## Install", "## Set up", "## Enroll", "## Run the lock", "## Bench",
                        "## Development"]
        var last = text.startIndex
        for heading in headings {
            guard let found = text.range(of: heading, range: last..<text.endIndex) else {
                Issue.record("README.md has no \(heading) after the previous step")
                continue
            }
            last = found.upperBound
        }
        // The two commands that build-and-run and build-and-test, verbatim.
        #expect(text.contains("tools/install-deps.sh && swift run fpmod demo"))
        #expect(text.contains("tools/install-deps.sh && swift build && swift test"))
    }
}
