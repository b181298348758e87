import Foundation
import Glibc
import Synchronization
import Testing
@testable import Posix

@Suite struct FileDescriptorTests {
    @Test func openingAMissingFileThrowsNoSuchFile() {
        #expect(throws: Errno.noSuchFile) {
            _ = try FileDescriptor.open("/nonexistent/fpmod", O_RDONLY)
        }
    }

    @Test func errnoDescriptionNamesTheConstant() {
        #expect(Errno.permissionDenied.description == "Permission denied (EACCES)")
        #expect(Errno(rawValue: 9999).description.contains("9999"))
    }

    @Test func writeAllThenReadRoundTripsAndEndOfFileIsEmpty() throws {
        let (reader, writer) = try makePipe()
        defer { try? reader.close() }
        let bytes: [UInt8] = [0x00, 0xFF, 0x0A, 0x0D, 0x11, 0x13]
        try writer.writeAll(bytes)
        try writer.close()
        #expect(try reader.read(maxCount: 64) == bytes)
        #expect(try reader.read(maxCount: 64) == [])
    }

    @Test func writeAllWaitsOutAFullNonBlockingPipe() throws {
        let (reader, writer) = try makePipe()
        try writer.setNonBlocking()
        // Four times the default 64 KiB pipe buffer: writeAll must hit EAGAIN and poll.
        let bytes = (0..<(256 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let received = ReceivedBytes()
        let finished = DispatchSemaphore(value: 0)
        onAnotherThread {
            while let chunk = try? reader.read(maxCount: 8192), !chunk.isEmpty { received.append(chunk) }
            try? reader.close()
            finished.signal()
        }
        try writer.writeAll(bytes, deadline: .now + .seconds(30))
        try writer.close()
        finished.wait()
        #expect(received.bytes == bytes)
    }

    @Test func writeAllPastItsDeadlineThrowsTimedOut() throws {
        let (reader, writer) = try makePipe()
        defer { try? reader.close(); try? writer.close() }
        try writer.setNonBlocking()
        #expect(throws: Errno.timedOut) {
            try writer.writeAll([UInt8](repeating: 1, count: 1 << 20), deadline: .now)
        }
    }

    @Test func nonBlockingReadOfAnEmptyPipeThrowsWouldBlock() throws {
        let (reader, writer) = try makePipe()
        defer { try? reader.close(); try? writer.close() }
        try reader.setNonBlocking()
        #expect(throws: Errno.wouldBlock) { _ = try reader.read(maxCount: 1) }
        try reader.setNonBlocking(false)
        #expect(fcntl(reader.rawValue, F_GETFL) & O_NONBLOCK == 0)
    }

    @Test func closeOnExecCanBeSetAndCleared() throws {
        let (reader, writer) = try makePipe()
        defer { try? reader.close(); try? writer.close() }
        try reader.setCloseOnExec()
        #expect(fcntl(reader.rawValue, F_GETFD) & FD_CLOEXEC != 0)
        try reader.setCloseOnExec(false)
        #expect(fcntl(reader.rawValue, F_GETFD) & FD_CLOEXEC == 0)
    }

    @Test func monotonicClockNeverGoesBack() {
        let first = Monotonic.nanoseconds()
        let second = Monotonic.nanoseconds()
        #expect(first > 0)
        #expect(second >= first)
    }
}

/// Bytes collected by a reader thread.
final class ReceivedBytes: Sendable {
    private let storage = Mutex<[UInt8]>([])
    func append(_ chunk: [UInt8]) { storage.withLock { $0 += chunk } }
    var bytes: [UInt8] { storage.withLock { $0 } }
}
