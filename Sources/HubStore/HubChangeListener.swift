import Foundation
import Glibc

/// The hub's newest revision as PostgreSQL announces it (`LISTEN`, one connection of its own),
/// for the requests of doors that wait for a change (a long poll): each change notifies at its
/// commit, so a revocation reaches a waiting door at once, and no door polls the database.
///
/// A lost connection is made again (every second until it works), and the latest revision is
/// read anew then: a notification missed meanwhile is never a change missed.
public final class HubChangeListener: @unchecked Sendable {
    /// The channel `recordChange` notifies on; the payload is the revision.
    static let channel = "fpmod_changes"

    // `latestRevision` and `stopping` are guarded by `condition`; the rest never change.
    private let condition = NSCondition()
    private var latestRevision: Int64 = 0
    private var stopping = false
    private let finished = DispatchSemaphore(value: 0)

    /// Connects and listens; throws when the database cannot be reached (a hub whose database
    /// is away does not start).
    public init(conninfo: String) throws(HubStoreError) {
        // A first look here, so that a hub whose database is away does not start; the thread
        // makes its own connection (a connection is not shared between threads) and reads the
        // latest revision again once it listens, so nothing between the two is missed.
        latestRevision = try Self.latest(try PostgresConnection(conninfo: conninfo))
        let thread = Thread { [self] in
            run(conninfo: conninfo)
            finished.signal()
        }
        thread.name = "fpmod-hub-listen"
        thread.start()
    }

    /// The newest revision heard of.
    public var latest: Int64 { condition.withLock { latestRevision } }

    /// Waits until a revision above `revision` exists or `deadline` passes; true for the former.
    public func wait(forRevisionAbove revision: Int64, until deadline: ContinuousClock.Instant) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while latestRevision <= revision, !stopping {
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else { break }
            let (seconds, attoseconds) = remaining.components
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18))
        }
        return latestRevision > revision
    }

    /// Stops listening and waits for the thread. Idempotent.
    public func stop() {
        let first = condition.withLock {
            defer { stopping = true }
            return !stopping
        }
        condition.broadcast()
        if first { finished.wait() }
    }

    deinit { stop() }

    private static func listening(_ conninfo: String) throws(HubStoreError) -> PostgresConnection {
        let connection = try PostgresConnection(conninfo: conninfo)
        try connection.execute("LISTEN " + channel)
        return connection
    }

    private static func latest(_ connection: PostgresConnection) throws(HubStoreError) -> Int64 {
        let rows = try connection.execute("SELECT coalesce(max(revision), 0) FROM changes")
        guard let text = rows.first?.first ?? nil, let value = Int64(text) else { throw .unexpectedReply("max(revision)") }
        return value
    }

    private func heard(_ revision: Int64) {
        condition.withLock { latestRevision = max(latestRevision, revision) }
        condition.broadcast()
    }

    private func run(conninfo: String) {
        var connection: PostgresConnection?
        while !condition.withLock({ stopping }) {
            guard let current = connection else {
                if let fresh = try? Self.listening(conninfo), let revision = try? Self.latest(fresh) {
                    connection = fresh
                    heard(revision)
                } else {
                    usleep(1_000_000)
                }
                continue
            }
            // A short poll, so that stop() is heard within a quarter second.
            var descriptor = pollfd(fd: current.socket, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 250) > 0 else { continue }
            do {
                if let newest = try current.notifications().compactMap({ Int64($0) }).max() { heard(newest) }
            } catch {
                connection = nil
            }
        }
    }
}
