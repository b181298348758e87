import Foundation
import Glibc
import Posix

/// A fresh directory under /tmp, removed by the caller with `removeTemporaryDirectory`.
func makeTemporaryDirectory() throws -> String {
    var template = Array((NSTemporaryDirectory() + "/fpmod-posix-XXXXXX").utf8CString)
    guard let created = mkdtemp(&template) else { throw Errno.current }
    return String(cString: created)
}

func removeTemporaryDirectory(_ path: String) {
    try? FileManager.default.removeItem(atPath: path)
}

/// A pipe as (read end, write end).
func makePipe() throws -> (FileDescriptor, FileDescriptor) {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw Errno.current }
    return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
}

/// Runs `body` on a new thread (not the caller's) and returns at once.
func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
    Thread.detachNewThread(body)
}
