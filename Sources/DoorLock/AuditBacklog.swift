import Foundation

/// Audit records the store could not take — a full disk, a store locked past its timeout, an
/// I/O error — kept in memory, in order, until it takes them again. The door keeps deciding
/// meanwhile: a record is what happened, not a condition for it.
///
/// Bounded: past `capacity` the newer records are counted, not kept (the first ones are the
/// evidence of what went wrong), and the flush writes one more record saying how many were
/// lost, so the gap is in the chained log itself.
struct AuditBacklog {
    struct Record: Equatable {
        var event: String
        var user: String?
        var slot: Int?
        var score: Int?
        var latencyJSON: String?
        var detail: String?
        var time: Date
    }

    enum Flush: Equatable {
        /// Nothing was waiting.
        case nothing
        /// Every kept record is written (`lost`: records not kept, said in a record of their own).
        case written(count: Int, lost: Int)
        /// The store still refuses; what is kept stays kept.
        case stillFailing
    }

    static let defaultCapacity = 1_000

    let capacity: Int
    private(set) var records: [Record] = []
    /// Records not kept since the store last took them all.
    private(set) var lost = 0
    /// Why the store refused, while it does.
    private(set) var failure: String?

    init(capacity: Int = AuditBacklog.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    var isEmpty: Bool { records.isEmpty && lost == 0 }

    /// Keeps `record` the store refused with `failure`; true when the store just started to
    /// refuse (say so once).
    mutating func keep(_ record: Record, failure: String) -> Bool {
        let first = self.failure == nil
        self.failure = failure
        if records.count < capacity { records.append(record) } else { lost += 1 }
        return first
    }

    /// Writes the kept records in order through `write`, stopping at the first refusal; then
    /// (once all are in) a `records-lost` record when some were not kept.
    mutating func flush(at now: Date = Date(), _ write: (Record) throws -> Void) -> Flush {
        guard !isEmpty else { return .nothing }
        var written = 0
        while let next = records.first {
            do { try write(next) } catch {
                failure = "\(error)"
                return .stillFailing
            }
            records.removeFirst()
            written += 1
        }
        if lost > 0 {
            let note = Record(event: "records-lost", user: nil, slot: nil, score: nil, latencyJSON: nil,
                              detail: "\(lost) audit record(s) were not kept while the store could not be written (\(failure ?? "unknown"))",
                              time: now)
            do { try write(note) } catch {
                failure = "\(error)"
                return .stillFailing
            }
        }
        let result = Flush.written(count: written, lost: lost)
        lost = 0
        failure = nil
        return result
    }
}
