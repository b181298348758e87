import Foundation
import Synchronization

/// One thread working through a short queue of jobs in order, for work the service loop must
/// not wait for (a memory-hard PIN hash, a Wiegand frame on the wire). Beyond `limit` waiting
/// jobs `submit` says no at once, so a flood cannot pile up memory or stale work.
final class SerialWorker<Job: Sendable>: Sendable {
    private struct Queue {
        var jobs: [Job] = []
        var stopping = false
    }

    private let name: String
    private let limit: Int
    private let queue = Mutex(Queue())
    private let available = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let work: @Sendable (Job) -> Void

    /// - Parameter limit: how many jobs may wait behind the one running.
    init(name: String, limit: Int, work: @escaping @Sendable (Job) -> Void) {
        self.name = name
        self.limit = max(0, limit)
        self.work = work
    }

    func start() {
        let thread = Thread { [self] in
            while let job = next() { work(job) }
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Queues `job`; false (and nothing queued) when the queue is full.
    func submit(_ job: Job) -> Bool {
        let accepted = queue.withLock { queue in
            guard !queue.stopping, queue.jobs.count < limit else { return false }
            queue.jobs.append(job)
            return true
        }
        if accepted { available.signal() }
        return accepted
    }

    /// Drops what waits; the job in progress goes on to its end.
    func requestStop() {
        queue.withLock { $0.stopping = true; $0.jobs.removeAll() }
        available.signal()
    }

    /// Waits up to `timeout` for the job in progress; false when it was still running.
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
}
