import ConsoleHTTP
import Foundation
import Testing

/// The gzip an answer is sent in, read back by Debian's own `gzip -d` (not by our code), and
/// the Accept-Encoding header as clients write it.
@Suite struct GzipEncodingTests {
    @Test func aBodyCompressedIsTheSameBodyToGzip() throws {
        let text = Array(String(repeating: "{\"kind\":\"user\",\"key\":\"visitor\",\"state\":{\"role\":\"user\"}},", count: 500).utf8)
        let compressed = try #require(GzipEncoding.compress(text))
        #expect(compressed.count * 10 < text.count && compressed.prefix(2) == [0x1f, 0x8b])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-d", "-c"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(compressed))
        try input.fileHandleForWriting.close()
        let decoded = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && Array(decoded) == text)
        let empty = try #require(GzipEncoding.compress([]))
        #expect(empty.prefix(2) == [0x1f, 0x8b])
    }

    @Test(arguments: [("gzip", true), ("gzip, deflate, br", true), ("deflate, gzip;q=0.5", true), ("*", true), ("GZIP", true),
                      ("gzip;q=0", false), ("gzip; q=0.0", false), ("deflate", false), ("identity", false), ("", false)])
    func acceptEncoding(header: String, accepted: Bool) {
        #expect(GzipEncoding.accepted(by: header) == accepted)
    }

    @Test func noHeaderIsNoGzip() {
        #expect(!GzipEncoding.accepted(by: nil))
    }
}
