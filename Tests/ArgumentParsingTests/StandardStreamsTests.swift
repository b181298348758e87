import Glibc
import Testing

@testable import ArgumentParsing

@Suite("Standard streams")
struct StandardStreamsTests {
    /// A real pipe: the bytes that arrive must be exactly the JSON line, UTF-8 and escapes intact.
    @Test func writesAllBytesToTheDescriptor() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let text = JSONOutput.line(["name": "ä\"b", "slot": 3])
        StandardStreams.write(text, to: fds[1])
        close(fds[1])
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
            if count <= 0 { break }
            received += buffer[..<count]
        }
        #expect(String(decoding: received, as: UTF8.self) == "{\"name\":\"ä\\\"b\",\"slot\":3}\n")
    }
}
