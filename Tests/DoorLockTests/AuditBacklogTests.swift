import Foundation
import Testing
@testable import DoorLock

/// The records a full disk refused: kept in order, bounded, written back in order with a
/// record of what was not kept.
@Suite struct AuditBacklogTests {
    struct Refused: Error, CustomStringConvertible { var description: String { "disk full" } }

    func record(_ event: String, _ second: Double = 0) -> AuditBacklog.Record {
        AuditBacklog.Record(event: event, user: "alice", slot: 3, score: nil, latencyJSON: nil, detail: nil,
                            time: Date(timeIntervalSince1970: 1_800_000_000 + second))
    }

    @Test func theFirstRefusalIsSaidOnceAndOrderIsKept() {
        var backlog = AuditBacklog(capacity: 10)
        let first = backlog.keep(record("unlocked", 1), failure: "disk full")
        let second = backlog.keep(record("no-match", 2), failure: "disk full")
        #expect(first && !second)
        var written: [String] = []
        let flushed = backlog.flush { written.append($0.event) }
        #expect(flushed == .written(count: 2, lost: 0))
        #expect(written == ["unlocked", "no-match"])
        #expect(backlog.isEmpty && backlog.failure == nil)
        let again = backlog.flush { _ in Issue.record("nothing to write") }
        #expect(again == .nothing)
    }

    @Test func aStoreStillRefusingKeepsEverything() {
        var backlog = AuditBacklog(capacity: 10)
        _ = backlog.keep(record("unlocked"), failure: "disk full")
        _ = backlog.keep(record("no-match"), failure: "disk full")
        var calls = 0
        let flushed = backlog.flush { _ in
            calls += 1
            if calls == 2 { throw Refused() }
        }
        #expect(flushed == .stillFailing)
        #expect(backlog.records.map(\.event) == ["no-match"])
        #expect(backlog.failure == "disk full")
    }

    @Test func pastTheBoundRecordsAreCountedAndTheGapIsRecorded() {
        var backlog = AuditBacklog(capacity: 3)
        for index in 0..<5 { _ = backlog.keep(record("no-match", Double(index)), failure: "disk full") }
        #expect(backlog.records.count == 3)
        #expect(backlog.lost == 2)
        var written: [AuditBacklog.Record] = []
        let flushed = backlog.flush(at: Date(timeIntervalSince1970: 1_800_000_100)) { written.append($0) }
        #expect(flushed == .written(count: 3, lost: 2))
        #expect(written.map(\.event) == ["no-match", "no-match", "no-match", "records-lost"])
        #expect(written.prefix(3).map(\.time) == (0..<3).map { Date(timeIntervalSince1970: 1_800_000_000 + Double($0)) })
        #expect(written.last?.detail?.hasPrefix("2 audit record(s) were not kept") == true)
        #expect(backlog.isEmpty)
    }
}
