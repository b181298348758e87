import Foundation
import HubStore
import TemplateStore

/// What one sync did to the door's store.
public struct ReplicaResult: Sendable, Equatable {
    /// The hub revision the store had, and has now.
    public var from: Int64
    public var to: Int64
    public var usersPut = 0
    public var usersRemoved = 0
    public var schedulesPut = 0
    public var schedulesRemoved = 0
    /// Changes at or below the door's revision (a replay, a reordered retry) or superseded by a
    /// later change of the same thing in the batch: not applied again.
    public var ignored = 0
    /// Schedules the hub removed that a user of this door alone still has: kept, since removing
    /// a user's schedule would let them in at every hour.
    public var kept: [String] = []

    public init(from: Int64, to: Int64) {
        self.from = from
        self.to = to
    }

    /// This result followed by `next`'s (the batch after it): one tally from the first revision to the last.
    public mutating func add(_ next: ReplicaResult) {
        to = next.to
        usersPut += next.usersPut
        usersRemoved += next.usersRemoved
        schedulesPut += next.schedulesPut
        schedulesRemoved += next.schedulesRemoved
        ignored += next.ignored
        kept += next.kept
    }

    public var changedAnything: Bool { usersPut + usersRemoved + schedulesPut + schedulesRemoved > 0 }

    /// "revision 4 → 9: users +2 −1, schedules +0 −0", as the service's log and `fpmod fleet sync` say it.
    public var summary: String {
        "revision \(from) → \(to): users +\(usersPut) −\(usersRemoved), schedules +\(schedulesPut) −\(schedulesRemoved)"
    }
}

/// The door's side of the fleet: the hub's changes applied to the door's store, its replica.
///
/// A batch is applied whole or not at all: every change is read and checked by the door's own
/// rules before the first write, then all of it and the revision it reaches are one SQLite
/// transaction, so a power cut leaves the door at the revision before or after, never between.
/// The door keeps deciding from its store alone; the hub is never on the path to the relay.
public enum ReplicaApply {
    /// The audit event of a sync that changed something (its detail says what).
    public static let auditEvent = "hub-sync"

    public static func apply(_ changes: [HubChange], to store: TemplateStore, at time: Date = Date()) throws(ReplicaError) -> ReplicaResult {
        let current: Int64
        do { current = try store.hubRevision() } catch { throw .store("\(error)") }
        // The latest change of each thing above the door's revision; older ones are history.
        var latest: [String: HubChange] = [:]
        for change in changes where change.revision > current {
            let id = change.kind.rawValue + "\u{0}" + change.key
            if let seen = latest[id], seen.revision >= change.revision { continue }
            latest[id] = change
        }
        var result = ReplicaResult(from: current, to: current)
        result.ignored = changes.count - latest.count
        guard let newest = latest.values.map(\.revision).max() else { return result }

        var read: [ReplicaChange] = []
        for change in latest.values.sorted(by: { $0.revision < $1.revision }) { read.append(try ReplicaChange.read(change)) }

        do {
            try store.transaction {
                // Schedules first (users name them), removals last (a removed schedule's users
                // changed first).
                for case let .putSchedule(name, schedule) in read {
                    try store.addSchedule(name: name, schedule: schedule, replace: true, at: time)
                    result.schedulesPut += 1
                }
                for case let .putUser(user) in read {
                    try store.putReplicatedUser(user, at: time)
                    result.usersPut += 1
                }
                for case let .deleteUser(name) in read {
                    guard try store.user(named: name) != nil else { continue }
                    try store.deleteUser(name)
                    result.usersRemoved += 1
                }
                // The store's own rule decides what may go: it refuses a schedule a user still
                // has (in a savepoint, so the refusal undoes nothing else of the batch).
                for case let .deleteSchedule(name) in read {
                    do {
                        try store.deleteSchedule(name: name)
                        result.schedulesRemoved += 1
                    } catch StoreError.scheduleInUse {
                        result.kept.append(name)
                    } catch StoreError.unknownSchedule {
                        continue
                    }
                }
                try store.setHubRevision(newest)
                _ = try store.appendAudit(event: auditEvent, detail: summary(of: result, to: newest), time: time)
            }
        } catch {
            throw .store("\(error)")
        }
        result.to = newest
        return result
    }

    static func summary(of result: ReplicaResult, to revision: Int64) -> String {
        var parts = ["revision \(result.from) to \(revision)"]
        if result.usersPut > 0 { parts.append("\(result.usersPut) user(s) added or changed") }
        if result.usersRemoved > 0 { parts.append("\(result.usersRemoved) removed") }
        if result.schedulesPut > 0 { parts.append("\(result.schedulesPut) schedule(s) added or changed") }
        if result.schedulesRemoved > 0 { parts.append("\(result.schedulesRemoved) schedule(s) removed") }
        if !result.kept.isEmpty { parts.append("kept \(result.kept.sorted().joined(separator: ", ")): a user of this door has it") }
        return parts.joined(separator: "; ")
    }
}
