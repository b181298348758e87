import Foundation
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

    private let worker: SerialWorker<Job>
    /// More grants than this waiting: the newest is dropped and said so (a panel that gets a
    /// burst of stale cards is worse than one that misses one).
    static let limit = 4

    init(sender: WiegandSender, post: @escaping @Sendable (Result) -> Void) {
        worker = SerialWorker(name: "fpmod-wiegand-out", limit: Self.limit) { job in
            do {
                post(Result(user: job.user, problem: nil, sent: try sender.send(job.credential)))
            } catch {
                post(Result(user: job.user, problem: "\(error)", sent: nil))
            }
        }
    }

    func start() { worker.start() }

    /// False when the queue is full (nothing queued).
    func submit(_ job: Job) -> Bool { worker.submit(job) }

    func stop() { worker.requestStop() }
}
