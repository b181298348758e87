import Foundation
import Glibc
@testable import TemplateStore

/// A fresh directory under /tmp, removed when the test's `defer` calls `remove()`.
struct TemporaryDirectory {
    let path: String

    init() throws {
        var template = Array("/tmp/fpmod-store-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw StoreError.fileSystem(path: "/tmp", detail: "mkdtemp failed") }
        path = String(cString: made)
    }

    var database: String { "\(path)/data/fpmod.db" }
    var key: String { "\(path)/config/store.key" }

    func openStore() throws -> TemplateStore {
        try TemplateStore(databasePath: database, keyPath: key)
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

func fileMode(_ path: String) -> mode_t {
    var info = stat()
    guard stat(path, &info) == 0 else { return 0 }
    return info.st_mode & 0o777
}

func fileBytes(_ path: String) -> [UInt8] {
    (try? PrivateFiles.read(path)) .flatMap { $0 } ?? []
}

func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard needle.count <= haystack.count, let first = needle.first else { return false }
    var i = 0
    while i <= haystack.count - needle.count {
        if haystack[i] == first, Array(haystack[i..<(i + needle.count)]) == needle { return true }
        i += 1
    }
    return false
}

/// A template-like blob with a recognisable, unlikely-to-occur-by-chance pattern.
func sampleTemplate(_ seed: UInt8, count: Int = 512) -> [UInt8] {
    Array("FPTEMPLATE-\(seed)-".utf8) + (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(seed)) }
}

/// Runs a Python script with the given arguments and returns its exit status and stdout.
@discardableResult
func runPython(_ script: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", script] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}
