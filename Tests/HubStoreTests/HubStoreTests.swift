import Foundation
import Glibc
import JSONValue
import Synchronization
import Testing
import TestSupport
@testable import HubStore

/// The hub's store on a real PostgreSQL started for each test (`TemporaryPostgres`).
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct HubStoreTests {
    @Test func migratingFromEmptyThenAgainChangesNothingTheSecondTime() throws {
        let server = try TemporaryPostgres()
        let database = try server.newDatabase("hub")
        #expect(throws: HubStoreError.olderSchema(found: 0, known: HubSchema.currentVersion)) { try HubStore(conninfo: database) }
        let first = try HubStore.migrate(conninfo: database)
        #expect(first.from == 0 && first.to == HubSchema.currentVersion)
        let second = try HubStore.migrate(conninfo: database)
        #expect(second.from == HubSchema.currentVersion && second.to == HubSchema.currentVersion)
        #expect(try server.psql("hub", "SELECT count(*) FROM hub_migrations") == String(HubSchema.currentVersion))
        _ = try HubStore(conninfo: database)
    }

    @Test func aDatabaseFromANewerFpmodIsRefusedUntouched() throws {
        let server = try TemporaryPostgres()
        let database = try server.newDatabase("hub")
        try HubStore.migrate(conninfo: database)
        try server.psql("hub", "INSERT INTO hub_migrations (version) VALUES (99)")
        #expect(throws: HubStoreError.newerSchema(found: 99, known: HubSchema.currentVersion)) { try HubStore.migrate(conninfo: database) }
        #expect(throws: HubStoreError.newerSchema(found: 99, known: HubSchema.currentVersion)) { try HubStore(conninfo: database) }
        #expect(try server.psql("hub", "SELECT count(*) FROM hub_migrations") == String(HubSchema.currentVersion + 1))
    }

    /// The server keeps nothing this process had open: a pipe's write end open while it started
    /// (as another test's pipe would be) is not among the descriptors of the server or of any
    /// process it started. Asked of /proc rather than by waiting for the pipe's end of file,
    /// which a child another test spawns at the same moment may hold for a while.
    @Test func theServerHoldsNoDescriptorOfTheTestProcess() throws {
        var ends: [Int32] = [-1, -1]
        let made = ends.withUnsafeMutableBufferPointer { Glibc.pipe($0.baseAddress!) }
        try #require(made == 0)
        defer { _ = Glibc.close(ends[0]); _ = Glibc.close(ends[1]) }
        var pipeInfo = stat()
        try #require(fstat(ends[1], &pipeInfo) == 0)
        let pipeName = "pipe:[\(pipeInfo.st_ino)]"
        let server = try TemporaryPostgres()
        let pidFile = try String(contentsOfFile: server.directory + "/data/postmaster.pid", encoding: .utf8)
        let postmaster = try #require(pidFile.split(separator: "\n").first.flatMap { Int32($0) })
        let files = FileManager.default
        let started = ((try? files.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init).filter { pid in
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            // "pid (comm) state ppid …": the parent is the second field after the last ')'.
            guard let close = stat.lastIndex(of: ")") else { return false }
            return stat[stat.index(after: close)...].split(separator: " ").dropFirst().first.flatMap { Int32($0) } == postmaster
        }
        var held: [Int32] = []
        for pid in [postmaster] + started {
            let descriptors = try files.contentsOfDirectory(atPath: "/proc/\(pid)/fd")
            if descriptors.contains(where: { (try? files.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\($0)")) == pipeName }) {
                held.append(pid)
            }
        }
        #expect(!started.isEmpty, "the server's own processes were found")
        #expect(held.isEmpty, "the server's processes \(held) hold the test's pipe")
    }

    /// Each migration is its own transaction: a migration that fails leaves the ones before it
    /// applied and recorded, and nothing of itself.
    @Test func aFailingMigrationLeavesTheVersionBeforeIt() throws {
        let server = try TemporaryPostgres()
        let database = try server.newDatabase("hub")
        let broken = HubSchema.migrations + ["CREATE TABLE half_done (id integer); SELECT no_such_function();"]
        do {
            try HubStore.migrate(conninfo: database, migrations: broken)
            Issue.record("a broken migration was applied")
        } catch {
            #expect(String(describing: error).contains("PQexec"))
        }
        #expect(try server.psql("hub", "SELECT max(version) FROM hub_migrations") == String(HubSchema.currentVersion))
        #expect(try server.psql("hub", "SELECT to_regclass('half_done') IS NULL") == "t")
        #expect(try server.psql("hub", "SELECT to_regclass('door_events') IS NOT NULL") == "t")
        let again = try HubStore.migrate(conninfo: database)
        #expect(again.from == HubSchema.currentVersion && again.to == HubSchema.currentVersion)
    }

    @Test func aServerThatIsNotThereIsNamed() throws {
        let server = try TemporaryPostgres()
        let missing = server.conninfo("postgres").replacingOccurrences(of: "host=\(server.directory)", with: "host=\(server.directory)/nothing")
        do {
            _ = try HubStore(conninfo: missing)
            Issue.record("connected to a server that is not there")
        } catch {
            #expect(String(describing: error).contains("PQconnectdbParams"))
        }
    }

    @Test func eachChangeGetsTheNextRevisionAndADeletionLeavesATombstone() throws {
        let (server, store) = try Self.migratedStore()
        _ = server
        #expect(try store.latestRevision() == 0)
        let alice = try store.putUser(HubUser(name: "alice", role: .admin))
        let office = try store.putSchedule(name: "office", text: "mon-fri 08:00-18:00")
        let aliceAgain = try store.putUser(HubUser(name: "alice", displayName: "Alice A.", role: .admin))
        #expect(alice < office && office < aliceAgain)
        // A thing's older change is replaced by its newer one: a door catching up needs only the last.
        let all = try store.changes(since: 0)
        #expect(all.map(\.revision) == [office, aliceAgain])
        #expect(all[1].state?["displayName"]?.stringValue == "Alice A.")
        let deleted = try #require(try store.deleteUser(named: "alice"))
        #expect(deleted > aliceAgain)
        let tail = try store.changes(since: aliceAgain)
        #expect(tail == [HubChange(revision: deleted, kind: .user, key: "alice", state: nil)])
        #expect(try store.deleteUser(named: "nobody") == nil)
        #expect(try store.latestRevision() == deleted)
        #expect(try server.psql("hub", "SELECT count(*) FROM users") == "0")
    }

    @Test func aDoorCatchesUpPageByPageInOrder() throws {
        let (server, store) = try Self.migratedStore()
        _ = server
        for index in 0..<25 { try store.putUser(HubUser(name: "user\(index)")) }
        var seen: [Int64] = [], since: Int64 = 0
        while true {
            let page = try store.changes(since: since, limit: 10)
            guard let last = page.last else { break }
            #expect(page.count <= 10)
            seen += page.map(\.revision)
            since = last.revision
        }
        #expect(seen.count == 25 && seen == seen.sorted() && Set(seen).count == 25)
        #expect(throws: HubStoreError.self) { try store.changes(since: -1) }
        #expect(throws: HubStoreError.self) { try store.changes(since: 0, limit: 0) }
    }

    /// Revisions commit in the order they are handed out: a writer waits for the change lock
    /// another transaction holds (seen waiting in pg_stat_activity), then takes the next one.
    @Test func aSecondWriterWaitsForTheFirstSoRevisionsCommitInOrder() throws {
        let (server, store) = try Self.migratedStore()
        let first = try store.putUser(HubUser(name: "first"))
        let holder = try PostgresConnection(conninfo: server.conninfo("hub"))
        try holder.execute("BEGIN")
        try holder.execute("SELECT pg_advisory_xact_lock($1)", [String(HubSchema.changeLock)])
        let finished = DispatchSemaphore(value: 0)
        let second = Mutex<Int64?>(nil)
        DispatchQueue.global().async {
            let revision = try? store.putUser(HubUser(name: "second"))
            second.withLock { $0 = revision }
            finished.signal()
        }
        var waiting = false
        for _ in 0..<600 where !waiting {
            waiting = try server.psql("hub", "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'") == "1"
            if !waiting { usleep(50_000) }
        }
        #expect(waiting, "the second writer never waited for the change lock")
        #expect(finished.wait(timeout: .now()) == .timedOut)
        try holder.execute("COMMIT")
        #expect(finished.wait(timeout: .now() + 60) == .success)
        #expect(second.withLock { $0 }.map { $0 > first } == true)
    }

    /// Two writers on two connections at once, and a door following while they write: every
    /// revision is handed out once, each writer's revisions grow, and the follower, which only ever asks
    /// for what is above the last revision it saw, misses none of the users written.
    @Test func concurrentWritersNeverHideAChangeFromAFollowingDoor() throws {
        let (server, first) = try Self.migratedStore()
        let second = try HubStore(conninfo: server.conninfo("hub"))
        let follower = try HubStore(conninfo: server.conninfo("hub"))
        let perWriter = 40
        let revisions = Mutex<[String: [Int64]]>([:])
        let writersDone = DispatchGroup()
        for (prefix, store) in [("a", first), ("b", second)] {
            DispatchQueue.global().async(group: writersDone) {
                var mine: [Int64] = []
                for index in 0..<perWriter {
                    if let revision = try? store.putUser(HubUser(name: "\(prefix)\(index)")) { mine.append(revision) }
                }
                revisions.withLock { $0[prefix] = mine }
            }
        }
        var seen: Set<String> = [], since: Int64 = 0, pulled: [Int64] = []
        var writing = true
        // Bounded only so a bug cannot hang the run: the writers finish long before.
        for _ in 0..<100_000 {
            if writing { writing = writersDone.wait(timeout: .now()) == .timedOut }
            let page = try follower.changes(since: since, limit: 7)
            seen.formUnion(page.map(\.key))
            pulled += page.map(\.revision)
            if let last = page.last { since = last.revision } else if !writing { break }
        }
        let byWriter = revisions.withLock { $0 }
        let a = byWriter["a"] ?? [], b = byWriter["b"] ?? []
        #expect(a.count == perWriter && b.count == perWriter)
        #expect(a == a.sorted() && b == b.sorted())
        #expect(Set(a + b).count == 2 * perWriter)
        #expect(pulled == pulled.sorted() && Set(pulled).count == pulled.count)
        #expect(seen.count == 2 * perWriter)
    }

    @Test func badInputIsRefusedBeforeAnythingIsWritten() throws {
        let (server, store) = try Self.migratedStore()
        _ = server
        #expect(throws: HubStoreError.self) { try store.putUser(HubUser(name: "a b")) }
        #expect(throws: HubStoreError.self) { try store.putUser(HubUser(name: "bob", pinHash: "1234")) }
        #expect(throws: HubStoreError.self) { try store.putUser(HubUser(name: "bob", validFrom: 10, validUntil: 5)) }
        #expect(throws: HubStoreError.self) { try store.putUser(HubUser(name: "bob", verifyMode: "face")) }
        #expect(throws: HubStoreError.self) { try store.putSchedule(name: "office'; DROP TABLE users; --", text: "mon 08:00-09:00") }
        #expect(try store.latestRevision() == 0)
        #expect(try server.psql("hub", "SELECT count(*) FROM users") == "0")
        // Values are parameters, never SQL: a display name full of quotes is only a name.
        let quoted = "O'Brien'); DROP TABLE users; --"
        try store.putUser(HubUser(name: "obrien", displayName: quoted))
        #expect(try server.psql("hub", "SELECT display_name FROM users") == quoted)
        // The door's own name rule: what a door can store, the hub takes (a door allows '@').
        try store.putUser(HubUser(name: "alice@home"))
    }

    // MARK: Events

    static func chain(_ count: Int, from start: Int64 = 1) -> [DoorEvent] {
        var previous = [UInt8](repeating: 0, count: 32)
        var events: [DoorEvent] = []
        for sequence in 1...(Int(start) + count - 1) {
            var hash = [UInt8](repeating: 0, count: 32)
            for index in hash.indices { hash[index] = UInt8(truncatingIfNeeded: sequence &* 31 &+ index &* 7) }
            if sequence >= Int(start) {
                events.append(DoorEvent(sequence: Int64(sequence), time: 1_800_000_000 + Double(sequence), event: "granted",
                                        user: "alice", detail: "slot 3", previousHash: previous, hash: hash))
            }
            previous = hash
        }
        return events
    }

    @Test func eventsAreKeptExactlyOnceAndAGapIsReportedUntilFilled() throws {
        let (server, store) = try Self.migratedStore()
        _ = server
        let door = try store.addDoor(named: "front")
        let events = Self.chain(6)
        #expect(try store.insertEvents(door: door, Array(events[0..<3])) == EventUpload(inserted: 3))
        // A retry (the answer was lost on the way back) duplicates nothing.
        #expect(try store.insertEvents(door: door, Array(events[0..<3])) == EventUpload(duplicates: 3))
        // Out of order: 6 before 4 and 5.
        #expect(try store.insertEvents(door: door, [events[5]]) == EventUpload(inserted: 1, gaps: [4...5]))
        #expect(try store.insertEvents(door: door, [events[4], events[3]]) == EventUpload(inserted: 2))
        let held = try store.events(door: door)
        #expect(held == events)
    }

    @Test func aBrokenChainOrAChangedEventRefusesTheWholeUpload() throws {
        let (server, store) = try Self.migratedStore()
        let door = try store.addDoor(named: "back")
        let events = Self.chain(4)
        try store.insertEvents(door: door, Array(events[0..<2]))
        var forged = events[2]
        forged.previousHash = [UInt8](repeating: 9, count: 32)
        #expect(throws: HubStoreError.brokenEventChain(door: door, sequence: 3)) { try store.insertEvents(door: door, [forged]) }
        var changed = events[1]
        changed.user = "mallory"
        changed.hash = [UInt8](repeating: 7, count: 32)
        #expect(throws: HubStoreError.conflictingEvent(door: door, sequence: 2)) { try store.insertEvents(door: door, [events[2], changed]) }
        #expect(try server.psql("hub", "SELECT count(*) FROM door_events") == "2")
        // An event whose successor the hub holds must be the one that successor chains to.
        try store.insertEvents(door: door, [events[3]])
        var wrongThird = events[2]
        wrongThird.hash = [UInt8](repeating: 5, count: 32)
        #expect(throws: HubStoreError.brokenEventChain(door: door, sequence: 4)) { try store.insertEvents(door: door, [wrongThird]) }
        #expect(throws: HubStoreError.unknownDoor(id: door + 100)) { try store.insertEvents(door: door + 100, [events[2]]) }
        try store.revokeDoor(id: door)
        #expect(throws: HubStoreError.revokedDoor(id: door)) { try store.insertEvents(door: door, [events[2]]) }
    }

    /// PostgreSQL killed (no checkpoint) and started again: what was committed is there, and
    /// the store's connection comes back by itself (the first statement may fail, as the
    /// connection's loss is only seen then; the next one reconnects).
    @Test func aKilledAndRestartedServerKeepsTheCommittedAndTheStoreReconnects() throws {
        let (server, store) = try Self.migratedStore()
        let revision = try store.putUser(HubUser(name: "alice"))
        try server.kill()
        #expect(throws: HubStoreError.self) { try store.latestRevision() }
        try server.start()
        var after: Int64?
        for _ in 0..<3 where after == nil { after = try? store.latestRevision() }
        #expect(after == revision)
        #expect(try store.changes(since: 0).map(\.key) == ["alice"])
    }

    static func migratedStore() throws -> (TemporaryPostgres, HubStore) {
        let server = try TemporaryPostgres()
        let database = try server.newDatabase("hub")
        try HubStore.migrate(conninfo: database)
        return (server, try HubStore(conninfo: database))
    }
}
