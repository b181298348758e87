// The fleet's costs, measured: what a door spends following the hub.
//
//   FleetBench apply [USERS]   a door's first sync of USERS users (default 10,000) and 20
//                              schedules into a fresh store, then one revocation, then the
//                              first batch again (a replay): time, and the store's size
//
//   FleetBench doors --hub URL --database CONNINFO --authority-sha256 HEX [--doors N] [--users N] [--hub-pid PID]
//                              N doors (default 200) join a running hub and follow it: the first
//                              sync of every door at once, one revocation reaching them all
//                              (tools/fleet-bench.sh starts PostgreSQL and the hub for it)
//
// The changes are built in memory as the hub's log carries them (`HubChange`), so this times the
// door alone: reading and checking every change, then one SQLite transaction. The hub's side
// (PostgreSQL, 200 doors) is measured separately.
import Foundation
import Glibc
import HubReplica
import HubStore
import JSONValue
import Posix
import TemplateStore

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("FleetBench: \(message)\n".utf8))
    exit(1)
}

func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let value = Double(seconds) * 1000 + Double(attoseconds) / 1e15
    return String(format: value < 10 ? "%.2f ms" : "%.0f ms", value)
}

func timed<T>(_ body: () throws -> T) rethrows -> (T, Duration) {
    let start = ContinuousClock.now
    let value = try body()
    return (value, ContinuousClock.now - start)
}

/// The hub's log for `users` users, as `HubStore` writes it: schedules first, then users.
func firstBatch(users: Int) -> [HubChange] {
    var changes: [HubChange] = []
    var revision: Int64 = 0
    for index in 0..<20 {
        revision += 1
        changes.append(HubChange(revision: revision, kind: .schedule, key: "shift-\(index)",
                                 state: .object(["name": .string("shift-\(index)"), "text": .string("mon-fri 0\(index % 10):00-18:00")])))
    }
    for index in 0..<users {
        revision += 1
        let name = "user-\(index)"
        changes.append(HubChange(revision: revision, kind: .user, key: name, state: .object([
            "name": .string(name), "displayName": .string("User \(index)"), "role": .string(index % 50 == 0 ? "admin" : "user"),
            "fingerprintUnlock": .bool(true), "pinHash": .null, "verifyMode": index % 10 == 0 ? .string("finger-and-pin") : .null,
            "schedule": index % 3 == 0 ? .string("shift-\(index % 20)") : .null,
            "validFrom": .null, "validUntil": index % 7 == 0 ? .int(1_900_000_000) : .null, "usesLeft": .null,
        ])))
    }
    return changes
}

func apply(users: Int) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fpmod-fleetbench-\(CurrentProcess.id)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let store = try TemplateStore(databasePath: folder + "/door.db", keyPath: folder + "/store.key")
    let batch = firstBatch(users: users)
    let bytes = batch.reduce(0) { $0 + $1.key.utf8.count + ($1.state?.encoded.utf8.count ?? 0) }
    print("first sync: \(users) users and 20 schedules, \(batch.count) changes, \(bytes / 1024) KiB of state")
    let (first, firstTime) = try timed { try ReplicaApply.apply(batch, to: store) }
    print("  applied in \(milliseconds(firstTime)) (\(first.usersPut) users, \(first.schedulesPut) schedules, revision \(first.to))")
    let size = (try? FileManager.default.attributesOfItem(atPath: folder + "/door.db")[.size] as? Int) ?? 0
    let wal = (try? FileManager.default.attributesOfItem(atPath: folder + "/door.db-wal")[.size] as? Int) ?? 0
    print("  store: \((size + wal) / 1024) KiB (database and its write-ahead log)")
    let revocation = [HubChange(revision: first.to + 1, kind: .user, key: "user-\(users / 2)", state: nil)]
    let (_, revokeTime) = try timed { try ReplicaApply.apply(revocation, to: store) }
    print("one revocation: applied in \(milliseconds(revokeTime))")
    let (replay, replayTime) = try timed { try ReplicaApply.apply(batch, to: store) }
    print("the first batch again (a replay): \(replay.ignored) ignored in \(milliseconds(replayTime)), nothing written")
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "apply":
    let users = arguments.count > 1 ? Int(arguments[1]) : 10_000
    guard let users, users > 0, users <= 1_000_000 else { fail("USERS is a whole number from 1 to 1,000,000") }
    do { try apply(users: users) } catch { fail("\(error)") }
case "doors":
    var options: [String: String] = [:]
    var index = 1
    while index + 1 < arguments.count, arguments[index].hasPrefix("--") {
        options[String(arguments[index].dropFirst(2))] = arguments[index + 1]
        index += 2
    }
    guard let hub = options["hub"], let database = options["database"], let authority = options["authority-sha256"],
          let doors = Int(options["doors"] ?? "200"), (1...2_000).contains(doors),
          let users = Int(options["users"] ?? "10000"), (1...1_000_000).contains(users) else {
        fail("usage: FleetBench doors --hub URL --database CONNINFO --authority-sha256 HEX [--doors 1-2000] [--users N] [--hub-pid PID]")
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fpmod-fleetbench-doors-\(CurrentProcess.id)").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    do {
        try DoorsBench(hub: hub, database: database, authoritySHA256: authority, doors: doors, users: users,
                       hubPID: options["hub-pid"].flatMap { pid_t($0) }, folder: folder).run()
    } catch {
        fail("\(error)")
    }
default:
    fail("usage: FleetBench apply [USERS] | FleetBench doors --hub URL --database CONNINFO --authority-sha256 HEX [--doors N] [--users N] [--hub-pid PID]")
}
