import Foundation
import TemplateStore

/// Who touched the sensor recently, counted per *current* slot, from the audit log. Pure.
///
/// A match row names the slot the finger had then. Walking the rows newest first, each row that
/// changed a slot is undone on a map "slot then → slot now": a move from A to B means a match on
/// A before it was the finger now wherever B's finger is now; an enroll, delete or repair of a
/// slot means older matches on it were someone else; a wipe or restore ends the history.
public struct MatchHistory: Sendable, Equatable {
    /// Matches per current slot.
    public var matchCounts: [Int: Int] = [:]
    /// Touches that matched nobody.
    public var strangers = 0
    /// Matches whose finger is no longer in the library (deleted, or its slot reused).
    public var forgotten = 0
    /// The oldest row looked at (nil: none).
    public var since: Date?

    public init() {}

    public var touches: Int { matchCounts.values.reduce(0, +) + strangers }

    /// Events of a touch a Search answered with a slot (the service's `match` and its refusals
    /// of a matched finger carry the slot, score and stage times; `fpmod identify` writes
    /// `identify-match`). Not these: a duress row repeats its match row, a tamper slot is
    /// nobody's, verify searches one user's slots only.
    public static let notIdentifyTouches: Set<String> = ["duress", "tamper", "verify-match"]
    /// Touches that matched nobody.
    public static let strangerEvents: Set<String> = ["no-match", "identify-no-match"]
    /// Rows after which older slot numbers mean nothing.
    public static let historyEnds: Set<String> = ["wipe", "restore", "restore-module"]
    /// Rows that give a slot to a new finger or take it away.
    public static let slotChanges: Set<String> = ["enroll", "delete", "repair", "layout-move", "layout-swap"]

    /// Whether a row is an identify touch with a match.
    public static func isMatch(_ entry: AuditEntry) -> Bool {
        entry.slot != nil && entry.score != nil && entry.latencyJSON != nil && !notIdentifyTouches.contains(entry.event)
    }

    public static func isStranger(_ entry: AuditEntry) -> Bool {
        strangerEvents.contains(entry.event) && entry.latencyJSON != nil
    }

    /// Counts `entries` (any order; sorted by id here). At most `limit` touches, the newest.
    public static func count(_ entries: [AuditEntry], limit: Int = .max) -> MatchHistory {
        var history = MatchHistory()
        var now: [Int: Int?] = [:]  // slot then → slot now (absent: the same; nil: gone)
        func current(_ slot: Int) -> Int? { now[slot] ?? slot }
        var touches = 0
        for entry in entries.sorted(by: { $0.id > $1.id }) {
            if touches >= limit { break }
            if historyEnds.contains(entry.event) { break }
            history.since = entry.time
            if isMatch(entry), let slot = entry.slot {
                touches += 1
                if let slot = current(slot) { history.matchCounts[slot, default: 0] += 1 } else { history.forgotten += 1 }
            } else if isStranger(entry) {
                touches += 1
                history.strangers += 1
            } else if entry.event == "layout-swap" || entry.event == "repair", let swap = entry.detail.flatMap(LayoutAudit.swap(in:)) {
                // Before this row each slot held the finger now found where the other's leads.
                let (leadA, leadB) = (current(swap.from), current(swap.to))
                now[swap.from] = .some(leadB)
                now[swap.to] = .some(leadA)
            } else if entry.event == "layout-move" || entry.event == "repair", let move = entry.detail.flatMap(LayoutAudit.move(in:)),
                      !(entry.detail ?? "").hasPrefix("rolled back") {
                // Before this row, `from` held the finger now found where `to`'s leads; `to` was empty.
                now[move.from] = .some(current(move.to))
                now[move.to] = .some(nil)
            } else if slotChanges.contains(entry.event), let slot = entry.slot {
                now[slot] = .some(nil)
            }
        }
        return history
    }
}
