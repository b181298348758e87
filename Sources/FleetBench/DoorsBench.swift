import DoorFleet
import FleetSync
import Foundation
import Glibc
import HubStore
import Posix
import Synchronization
import TemplateStore

/// The hub's side, measured with real doors: `DOORS` doors (each its own key pair, certificate,
/// SQLite store and libcurl connection, on threads of this process) join a running
/// `fpmod hub serve`, make their first sync of the hub's users, then all wait on a long poll
/// while one revocation is made at the hub: how long until the last door has applied it.
struct DoorsBench {
    let hub: String
    let database: String
    let authoritySHA256: String
    let doors: Int
    let users: Int
    let hubPID: pid_t?
    let folder: String

    func run() throws {
        let store = try HubStore(conninfo: database)
        let existing = try store.latestRevision()
        if existing == 0 {
            let (_, fillTime) = try timed {
                for index in 0..<users { try store.putUser(HubUser(name: "user-\(index)", displayName: "User \(index)")) }
            }
            print("hub: \(users) users written in \(milliseconds(fillTime)) (one transaction each)")
        }

        // Joining: codes made at the hub, each door's own key pair and certificate.
        let address = try HubAddress(parsing: hub)
        var joined: [(FleetFiles, String, String)] = []
        let (_, joinTime) = try timed {
            for index in 0..<doors {
                let directory = folder + "/door-\(index)"
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                let database = directory + "/store.db", key = directory + "/store.key"
                _ = try TemplateStore(databasePath: database, keyPath: key, create: true)
                let files = FleetFiles(storeDatabase: database)
                let join = try FleetJoin(hub: address.description, code: try store.joinCode(forDoor: "bench-\(CurrentProcess.id)-\(index)"), files: files)
                let authority = try join.presentedAuthority()
                guard authority.matches(authoritySHA256) else { fail("the hub's authority is not \(authoritySHA256)") }
                _ = try join.join(pinning: authority)
                joined.append((files, database, key))
            }
        }
        let doorFiles = joined
        print("\(doors) doors joined in \(milliseconds(joinTime)) (\(milliseconds(joinTime / doors)) a door: key pair, request, certificate)")

        // The first sync: every door at once, as after a site-wide power cut.
        let cpuBefore = hubCPUSeconds()
        let results = Mutex<[(Duration, Int, Int64)]>([])
        let (_, firstTime) = timed {
            concurrently(doorFiles.count) { index in
                let (files, database, key) = doorFiles[index]
                do {
                    let link = try FleetLink(files: files, store: try TemplateStore(databasePath: database, keyPath: key))
                    let (report, time) = try timed { try link.pull() }
                    results.withLock { $0.append((time, link.bytesReceived, report.applied.to)) }
                } catch {
                    fail("door \(index)'s first sync: \(error)")
                }
            }
        }
        let first = results.withLock { $0 }
        let bytes = first.reduce(0) { $0 + $1.1 }
        let latest = try store.latestRevision()
        guard first.allSatisfy({ $0.2 == latest }) else { fail("a door did not reach revision \(latest)") }
        let slowest = first.map(\.0).max() ?? .zero
        print("first sync of \(users) users, all \(doors) doors at once: \(milliseconds(firstTime)) until the last door had applied it (slowest door \(milliseconds(slowest))); \(bytes / doors / 1024) KiB a door, \(bytes / 1_048_576) MiB in all")
        if let cpu = cpuBefore, let after = hubCPUSeconds() {
            print("  hub CPU: \(String(format: "%.2f", after - cpu)) s in all, \(String(format: "%.1f", (after - cpu) * 1000 / Double(doors))) ms a door")
        }

        // One revocation reaching every door: all wait on a long poll; the hub deletes a user.
        let arrived = Mutex<[ContinuousClock.Instant]>([])
        let waiting = Mutex(0)
        let revoked = "user-\(users / 2)"
        let cpuWaiting = hubCPUSeconds()
        var start = ContinuousClock.now
        let starter = Mutex<ContinuousClock.Instant?>(nil)
        let thread = Thread {
            while waiting.withLock({ $0 }) < doorFiles.count { usleep(10_000) }
            usleep(500_000)  // every poll is at the hub and waiting
            do {
                let writer = try HubStore(conninfo: database)
                starter.withLock { $0 = .now }
                _ = try writer.deleteUser(named: revoked)
            } catch {
                fail("the revocation: \(error)")
            }
        }
        thread.start()
        concurrently(doorFiles.count) { index in
            let (files, database, key) = doorFiles[index]
            do {
                let link = try FleetLink(files: files, store: try TemplateStore(databasePath: database, keyPath: key))
                waiting.withLock { $0 += 1 }
                var report = try link.pull(wait: 25)
                while report.applied.usersRemoved == 0 { report = try link.pull(wait: 25) }
                arrived.withLock { $0.append(.now) }
            } catch {
                fail("door \(index) waiting: \(error)")
            }
        }
        start = starter.withLock { $0 } ?? start
        let times = arrived.withLock { $0 }.map { $0 - start }.sorted()
        print("one revocation at the hub, \(doors) doors waiting: applied at the first door after \(milliseconds(times.first ?? .zero)), "
            + "at half of them \(milliseconds(times[times.count / 2])), at the last \(milliseconds(times.last ?? .zero))")
        if let cpu = cpuWaiting, let after = hubCPUSeconds() {
            print("  hub CPU for it (the waits and the answers): \(String(format: "%.2f", after - cpu)) s")
        }
    }

    /// The hub process's user + system CPU seconds (/proc/PID/stat), when its PID was given.
    func hubCPUSeconds() -> Double? {
        guard let hubPID, let text = try? String(contentsOfFile: "/proc/\(hubPID)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the name: state is field 3; utime and stime are fields 14 and 15 (1-based).
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return nil }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

/// `body(0..<count)`, each on a thread of its own, returning when all have.
func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            body(index)
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    group.wait()
}
