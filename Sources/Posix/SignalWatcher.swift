import CShims
import Glibc

/// Receives termination signals as readable data on a descriptor (`signalfd(2)`), so an event
/// loop can poll for them beside everything else instead of running code in a signal handler.
///
/// The signals are *blocked* with `pthread_sigmask` on the calling thread, which is what lets
/// them stay pending for the signalfd instead of running their default action. The mask is per
/// thread and inherited by threads created afterwards, so create the watcher on the main thread
/// **before any other thread starts** (before Dispatch, Foundation or Swift concurrency spin up
/// workers). A thread that exists already keeps the signal unblocked, and a process-directed
/// signal (`kill`) may be delivered to it and kill the process; such threads would each need
/// `pthread_sigmask` themselves. Child processes inherit the mask: unblock in the child if
/// it needs the signals.
public final class SignalWatcher: Sendable {
    /// The descriptor to poll for `.readable`.
    public let fileDescriptor: FileDescriptor
    /// The signals this watcher blocked and reports.
    public let signals: [Int32]

    /// Blocks `signals` on the calling thread and opens a signalfd for them.
    public init(signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]) throws(Errno) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        let result = pthread_sigmask(SIG_BLOCK, &mask, nil)
        if result != 0 { throw Errno(rawValue: result) }
        let fd = try retryingOnInterrupt { fpmod_signalfd(&mask) }
        fileDescriptor = FileDescriptor(rawValue: fd)
        self.signals = signals
    }

    deinit { try? fileDescriptor.close() }

    /// Sleeps until a watched signal arrives (`poll`, then `read`), and returns what came.
    public func waitForAny() -> [Int32] {
        while true {
            guard let ready = try? poll(fileDescriptor, .readable, deadline: nil), ready.contains(.readable) else { continue }
            if let received = try? read(), !received.isEmpty { return received }
        }
    }

    /// The signal numbers received since the last call, oldest first; `[]` when none is pending.
    /// Reads without blocking.
    public func read() throws(Errno) -> [Int32] {
        let recordSize = fpmod_signalfd_siginfo_size()
        var received: [Int32] = []
        while true {
            let bytes: [UInt8]
            do {
                bytes = try fileDescriptor.read(maxCount: recordSize * 8)
            } catch .wouldBlock {
                return received
            }
            if bytes.isEmpty { return received }
            // Each record starts with ssi_signo, a native-endian uint32_t.
            for start in stride(from: 0, to: bytes.count - recordSize + 1, by: recordSize) {
                let signo = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: start, as: UInt32.self) }
                received.append(Int32(bitPattern: signo))
            }
        }
    }
}
