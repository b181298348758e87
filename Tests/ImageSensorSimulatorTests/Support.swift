import Glibc
import Testing

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
