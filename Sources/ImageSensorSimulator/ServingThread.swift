import Foundation
import Posix
import Synchronization

/// The thread a simulated sensor's socket is served on: it runs `body` until `stop()`, and
/// `wakeup` (polled by `body`) ends its poll early for a stop or a state change.
final class ServingThread: Sendable {
    let wakeup: WakeupPipe
    private let stopping = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)

    init() throws(Errno) { wakeup = try WakeupPipe() }

    /// A listener at `path` and a thread (not started yet) to serve it on.
    static func listening(at path: String) throws(SensorSocketError) -> (UnixListener, ServingThread) {
        let listener = try SensorSocketError.listen(at: path)
        do {
            return (listener, try ServingThread())
        } catch {
            listener.close()
            throw SensorSocketError(path: path, errno: error, holder: nil)
        }
    }

    var isStopping: Bool { stopping.withLock { $0 } }

    /// Starts `body` on a new thread named `name`.
    func start(name: String, _ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [finished] in
            body()
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Asks `body` to return and waits until it has. Idempotent.
    func stop() {
        let first = stopping.withLock { stopping -> Bool in
            defer { stopping = true }
            return !stopping
        }
        guard first else { return }
        wakeup.signal()
        finished.wait()
    }
}
