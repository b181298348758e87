import Foundation
import Testing

/// Rules of architecture.md that the compiler cannot check, checked on the source text: the
/// owner of a module closes it through `ByteTransport.close()` (issue 10: no downcast to the
/// termios type), and system calls are made in the Posix target.
struct LayeringTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")

    /// (path relative to Sources, line number, line) of every Swift line containing `needle`,
    /// outside the targets in `allowedIn`.
    static func lines(containing needle: String, allowedIn: [String] = []) throws -> [String] {
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        var found: [String] = []
        while let relative = enumerator.nextObject() as? String {
            guard relative.hasSuffix(".swift"), !allowedIn.contains(where: { relative.hasPrefix($0 + "/") }) else { continue }
            let text = try String(contentsOf: sources.appendingPathComponent(relative), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains(needle) && !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                found.append("\(relative):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        return found
    }

    @Test func theSourcesAreWhereThisTestLooks() throws {
        #expect(FileManager.default.fileExists(atPath: Self.sources.appendingPathComponent("Transport/ByteTransport.swift").path))
    }

    @Test func nobodyDowncastsATransportToSerialPort() throws {
        for cast in ["as? SerialPort", "as! SerialPort"] {
            let found = try Self.lines(containing: cast, allowedIn: ["SerialPort"])
            #expect(found.isEmpty, "close through ByteTransport.close(): \(found)")
        }
    }

    /// The calls that have a Posix wrapper (`CurrentProcess`, `FileSystem`) are made there only.
    @Test func processAndFileCallsGoThroughPosix() throws {
        for call in ["getpid()", "geteuid()", "getegid()", "getgroups(", "mkdir(", "chmod("] {
            let found = try Self.lines(containing: call, allowedIn: ["Posix", "CShims"])
            #expect(found.isEmpty, "use the Posix wrapper: \(found)")
        }
        let privateFiles = try String(contentsOf: Self.sources.appendingPathComponent("TemplateStore/PrivateFiles.swift"), encoding: .utf8)
        #expect(!privateFiles.contains("import Glibc"), "PrivateFiles makes no system call of its own")
    }
}
