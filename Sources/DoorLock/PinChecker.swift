import AccessPolicy
import Foundation
import Posix
import Synchronization
import TemplateStore

/// Checks PINs on ONE thread with a short queue. Each check is a 64 MiB Argon2id hash, so a
/// thread per `pin` line would let a flood on the control socket exhaust memory; beyond the
/// queue the loop answers "busy" at once instead.
final class PinChecker: Sendable {
    struct Job: Sendable {
        var requestID: Int
        var action: PinPurpose
        var user: String?
        var pin: String
    }

    private struct Queue {
        var jobs: [Job] = []
        var stopping = false
    }

    private let store: TemplateStore
    private let limit: Int
    private let queue = Mutex(Queue())
    private let available = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let post: @Sendable (LockService.PinCheck) -> Void

    /// - Parameter limit: how many checks may wait behind the one running.
    init(store: TemplateStore, limit: Int, post: @escaping @Sendable (LockService.PinCheck) -> Void) {
        self.store = store
        self.limit = max(0, limit)
        self.post = post
    }

    func start() {
        let thread = Thread { [self] in
            while let job = next() { post(check(job)) }
            finished.signal()
        }
        thread.name = "fpmod-pin"
        thread.start()
    }

    /// Queues `job`; false (and nothing queued) when the queue is full: answer "busy".
    func submit(_ job: Job) -> Bool {
        let accepted = queue.withLock { queue in
            guard !queue.stopping, queue.jobs.count < limit else { return false }
            queue.jobs.append(job)
            return true
        }
        if accepted { available.signal() }
        return accepted
    }

    /// Drops what waits; the check in progress goes on to its end (bounded: one hash).
    func requestStop() {
        queue.withLock { $0.stopping = true; $0.jobs.removeAll() }
        available.signal()
    }

    /// Waits up to `timeout` for the check in progress; false when it was still running.
    @discardableResult
    func waitUntilFinished(timeout: Duration) -> Bool {
        guard finished.wait(timeout: .now() + timeout.timeInterval) == .success else { return false }
        finished.signal()  // keep it signalled for any later waiter
        return true
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

    private func check(_ job: Job) -> LockService.PinCheck {
        var check = LockService.PinCheck(requestID: job.requestID, action: job.action, user: job.user, correct: false, isAdmin: false)
        do {
            if let user = job.user {
                if let record = try store.user(named: user) {
                    check.isAdmin = record.role == .admin
                    check.verifyMode = record.verifyMode.flatMap(VerifyMode.init(rawValue:))
                    check.correct = try store.verifyPIN(job.pin, for: user)
                }
            } else {
                for record in try store.users() where record.hasPIN {
                    if try store.verifyPIN(job.pin, for: record.name) {
                        check.user = record.name
                        check.isAdmin = record.role == .admin
                        check.verifyMode = record.verifyMode.flatMap(VerifyMode.init(rawValue:))
                        check.correct = true
                        break
                    }
                }
            }
        } catch {
            check.problem = String(describing: error)
        }
        return check
    }
}
