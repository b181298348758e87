import AccessPolicy
import Foundation
import Posix
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

    private let worker: SerialWorker<Job>

    /// - Parameter limit: how many checks may wait behind the one running.
    init(store: TemplateStore, limit: Int, post: @escaping @Sendable (LockService.PinCheck) -> Void) {
        worker = SerialWorker(name: "fpmod-pin", limit: limit) { job in post(Self.check(job, in: store)) }
    }

    func start() { worker.start() }

    /// Queues `job`; false (and nothing queued) when the queue is full: answer "busy".
    func submit(_ job: Job) -> Bool { worker.submit(job) }

    /// Drops what waits; the check in progress goes on to its end (bounded: one hash).
    func requestStop() { worker.requestStop() }

    /// Waits up to `timeout` for the check in progress; false when it was still running.
    @discardableResult
    func waitUntilFinished(timeout: Duration) -> Bool { worker.waitUntilFinished(timeout: timeout) }

    private static func check(_ job: Job, in store: TemplateStore) -> LockService.PinCheck {
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
