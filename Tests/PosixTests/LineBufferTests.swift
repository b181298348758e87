import Testing
@testable import Posix

@Suite struct LineBufferTests {
    @Test func cutsLinesAtNewlineAndDropsCarriageReturns() throws {
        var buffer = LineBuffer()
        buffer.append(Array("one\r\ntwo\n\nthr".utf8))
        #expect(try buffer.nextLine() == "one")
        #expect(try buffer.nextLine() == "two")
        #expect(try buffer.nextLine() == "")
        #expect(try buffer.nextLine() == nil)
        buffer.append(Array("ee\n".utf8))
        #expect(try buffer.nextLine() == "three")
        #expect(buffer.isEmpty)
    }

    @Test func feedingOneByteAtATimeGivesTheSameLines() throws {
        var buffer = LineBuffer()
        var lines: [String] = []
        for byte in "status\r\nenroll 3 alice\n".utf8 {
            buffer.append([byte])
            while let line = try buffer.nextLine() { lines.append(line) }
        }
        #expect(lines == ["status", "enroll 3 alice"])
    }

    @Test func anOverlongLineIsRefused() {
        var buffer = LineBuffer(maximumLineLength: 8)
        buffer.append(Array("123456789".utf8))
        #expect(throws: Errno.messageTooLong) { _ = try buffer.nextLine() }
    }

    @Test func remainderIsTheUnterminatedTail() throws {
        var buffer = LineBuffer()
        buffer.append(Array("a\nb".utf8))
        #expect(try buffer.nextLine() == "a")
        #expect(buffer.takeRemainder() == "b")
        #expect(buffer.takeRemainder() == nil)
    }
}
