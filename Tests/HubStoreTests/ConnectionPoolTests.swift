import Dispatch
import Foundation
import Testing
import TestSupport
@testable import HubStore

/// The hub's pool of connections on a real PostgreSQL: a caller that holds a connection (a
/// long statement, a transaction) does not hold up another while a connection is free; when
/// none is, the caller waits its turn; connections are opened only when needed.
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct ConnectionPoolTests {
    /// `busy` callers each hold a connection until released, then `check` runs on a thread of
    /// its own: true when it finished within `seconds` while they still held theirs.
    static func finishesWhileOthersHold(_ store: HubStore, busy: Int, within seconds: Int,
                                        _ check: @escaping @Sendable () -> Void) -> Bool {
        let holding = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        for _ in 0..<busy {
            DispatchQueue.global().async {
                _ = try? store.locked { (_: PostgresConnection) throws(HubStoreError) -> Int in
                    holding.signal()
                    release.wait()
                    return 0
                }
                done.signal()
            }
        }
        for _ in 0..<busy { holding.wait() }
        let finished = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            check()
            finished.signal()
        }
        let inTime = finished.wait(timeout: .now() + .seconds(seconds)) == .success
        for _ in 0..<busy { release.signal() }
        for _ in 0..<busy { done.wait() }
        // Released, a waiting caller gets its connection and finishes.
        if !inTime { finished.wait() }
        return inTime
    }

    @Test func aFreeConnectionServesACallerWhileAnotherIsHeldAndAFullPoolMakesItWait() throws {
        let server = try TemporaryPostgres()
        let database = try server.newDatabase("hub")
        try HubStore.migrate(conninfo: database)
        let store = try HubStore(conninfo: database, connections: 3)
        #expect(store.connectionLimit == 3)
        func sessions() throws -> Int { Int(try server.psql("hub", "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'fpmod-hub'")) ?? -1 }
        #expect(try sessions() == 1, "the others are opened when needed")

        // Two held, the third serves (a query of a millisecond; 20 s is a busy machine's bound);
        // afterwards the pool has opened all three.
        #expect(Self.finishesWhileOthersHold(store, busy: 2, within: 20) { _ = try? store.latestRevision() })
        #expect(try sessions() == 3)
        // All three held: the caller waits for one (and gets it once released). It cannot finish
        // while they hold, so a short wait proves as much as a long one.
        #expect(!Self.finishesWhileOthersHold(store, busy: 3, within: 2) { _ = try? store.latestRevision() })
        // A pool of one is the old hub: one caller at a time.
        let single = try HubStore(conninfo: database)
        #expect(!Self.finishesWhileOthersHold(single, busy: 1, within: 2) { _ = try? single.latestRevision() })
        #expect(throws: HubStoreError.invalid("a hub holds 1 to 64 connections, not 0")) { try HubStore(conninfo: database, connections: 0) }
    }
}
