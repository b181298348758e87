import Transport
import Foundation
import Glibc
import Posix
@testable import SerialPort

/// A fresh directory under /tmp, removed by the caller with `removeTemporaryDirectory`.
func makeTemporaryDirectory() throws -> String {
    var template = Array((NSTemporaryDirectory() + "/fpmod-serial-XXXXXX").utf8CString)
    guard let created = mkdtemp(&template) else { throw Errno.current }
    return String(cString: created)
}

func removeTemporaryDirectory(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

/// Every byte in every position a line discipline could mangle: XON/XOFF, ^C, CR, LF, NUL, 0xFF,
/// then all 256 values.
let awkwardBytes: [UInt8] = [0x11, 0x13, 0x03, 0x0D, 0x0A, 0x00, 0xFF] + (0...255).map { UInt8($0) }

/// Reads from a PTY master until `count` bytes arrived (or 30 s passed, then returns what came).
func readFromMaster(_ master: FileDescriptor, count: Int) throws -> [UInt8] {
    var received: [UInt8] = []
    let deadline = ContinuousClock.now + .seconds(30)
    while received.count < count, try master.waitReadable(deadline: deadline) {
        switch Result(catching: { () throws(Errno) in try master.read(maxCount: count - received.count) }) {
        case .success(let chunk): received += chunk
        case .failure(.wouldBlock): continue
        case .failure(let error): throw error
        }
    }
    return received
}

/// Receives until `count` bytes arrived (or 30 s passed, then returns what came).
func receiveAll(_ transport: ByteTransport, count: Int) throws -> [UInt8] {
    var received: [UInt8] = []
    let deadline = ContinuousClock.now + .seconds(30)
    while received.count < count {
        let chunk = try transport.receive(maxCount: count - received.count, deadline: deadline)
        if chunk.isEmpty { break }
        received += chunk
    }
    return received
}

/// The error `body` throws, or nil if it does not throw.
func serialError(_ body: () throws -> Void) -> SerialPortError? {
    do {
        try body()
        return nil
    } catch let error as SerialPortError {
        return error
    } catch {
        return .io(.invalidArgument, operation: "unexpected error \(error)")
    }
}
