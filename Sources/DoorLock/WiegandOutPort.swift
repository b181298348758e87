import Foundation
import Synchronization
import Wiegand
import WiegandOutput

/// Wiegand out inside the service: frames are sent on a thread of their own (a 34-bit frame at
/// 1 ms takes 34 ms: not the loop's to wait for), one at a time, from a short queue; each
/// result is posted back to the loop.
final class WiegandOutPort: Sendable {
    struct Job: Sendable {
        var user: String
        var credential: WiegandCredential
    }

    struct Result: Sendable {
        var user: String
        var problem: String?
        /// What went out, measured (nil when it failed).
        var sent: WiegandSender.Sent?
    }

    private struct Queue {
        var jobs: [Job] = []
        var stopping = false
    }

    private let sender: WiegandSender
    private let queue = Mutex(Queue())
    private let available = DispatchSemaphore(value: 0)
    private let post: @Sendable (Result) -> Void
    /// More grants than this waiting: the newest is dropped and said so (a panel that gets a
    /// burst of stale cards is worse than one that misses one).
    static let limit = 4

    init(sender: WiegandSender, post: @escaping @Sendable (Result) -> Void) {
        self.sender = sender
        self.post = post
    }

    func start() {
        let thread = Thread { [self] in
            while let job = next() {
                do {
                    post(Result(user: job.user, problem: nil, sent: try sender.send(job.credential)))
                } catch {
                    post(Result(user: job.user, problem: "\(error)", sent: nil))
                }
            }
        }
        thread.name = "fpmod-wiegand-out"
        thread.start()
    }

    /// False when the queue is full (nothing queued).
    func submit(_ job: Job) -> Bool {
        let accepted = queue.withLock { queue in
            guard !queue.stopping, queue.jobs.count < Self.limit else { return false }
            queue.jobs.append(job)
            return true
        }
        if accepted { available.signal() }
        return accepted
    }

    func stop() {
        queue.withLock { $0.stopping = true; $0.jobs.removeAll() }
        available.signal()
    }

    private func next() -> Job? {
        while true {
            available.wait()
            let (job, stopping) = queue.withLock { queue -> (Job?, Bool) in
                (queue.jobs.isEmpty ? nil : queue.jobs.removeFirst(), queue.stopping)
            }
            if stopping { return nil }
            if let job { return job }
        }
    }
}
