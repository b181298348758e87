@testable import AccessPolicy
@testable import DoorLock
import Foundation
import TemplateStore
import Testing

/// "Who came in on Tuesday": the grants of a real store file, read on the door's clock.
struct EntryReportTests {
    static func store() throws -> (TemplateStore, String) {
        let directory = NSTemporaryDirectory() + "entry-report-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return (try TemplateStore(databasePath: directory + "/store.db", keyPath: directory + "/store.key"), directory)
    }

    @Test func grantsOfADayOnTheDoorsClock() throws {
        let (store, directory) = try Self.store()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let berlin = try TimeZoneDatabase.load("Europe/Berlin")
        // Tuesday 2026-12-08 in Berlin runs from 2026-12-07 23:00 UTC to 2026-12-08 23:00 UTC.
        let tuesdayStart: Double = 1_796_684_400
        try store.appendAudit(event: "granted", user: "early", detail: "card at the entry reader", time: Date(timeIntervalSince1970: tuesdayStart - 60))
        try store.appendAudit(event: "granted", user: "alice", detail: "fingerprint at the entry reader", time: Date(timeIntervalSince1970: tuesdayStart + 30_600))
        try store.appendAudit(event: "match", user: "alice", detail: "slot 0", time: Date(timeIntervalSince1970: tuesdayStart + 30_600))
        try store.appendAudit(event: "granted", user: "=cmd|' /C calc'!A0", detail: "pin at the exit reader", time: Date(timeIntervalSince1970: tuesdayStart + 43_200))
        try store.appendAudit(event: "granted", user: "late", detail: "card at the entry reader", time: Date(timeIntervalSince1970: tuesdayStart + 86_400))

        let today = CivilDate(year: 2026, month: 12, day: 10)  // a Thursday
        let tuesday = try #require(ReportMoment(parsing: "tuesday", today: today))
        #expect(tuesday.date == CivilDate(year: 2026, month: 12, day: 8))
        #expect(tuesday.start(in: berlin) == Int64(tuesdayStart))
        let report = try EntryReport.read(store: store, door: "front", timeZone: berlin, since: tuesday.start(in: berlin),
                                          until: tuesday.end(in: berlin), user: nil, limit: 100)
        #expect(report.entries.map(\.user) == ["alice", "=cmd|' /C calc'!A0"])
        #expect(report.entries.first?.local.description == "2026-12-08 08:30")
        #expect(report.entries.map(\.side) == ["entry", "exit"])
        let lines = report.csv.split(separator: "\r\n").map(String.init)
        #expect(lines.first == "time,utc,time_zone,door,user,side,how")
        #expect(lines.last == "2026-12-08 12:00,2026-12-08T11:00:00Z,Europe/Berlin,front,'=cmd|' /C calc'!A0,exit,pin at the exit reader", "a formula is never run")

        let aliceOnly = try EntryReport.read(store: store, door: "front", timeZone: berlin, since: 0, until: Int64.max / 2, user: "alice", limit: 100)
        #expect(aliceOnly.entries.count == 1 && !aliceOnly.truncated)
        let firstTwo = try EntryReport.read(store: store, door: "front", timeZone: berlin, since: 0, until: Int64.max / 2, user: nil, limit: 2)
        #expect(firstTwo.entries.map(\.user) == ["early", "alice"] && firstTwo.truncated)
    }

    @Test func aCSVFieldKeepsItsCell() {
        #expect(EntryReport.csvField("plain") == "plain")
        #expect(EntryReport.csvField("a,b") == "\"a,b\"")
        #expect(EntryReport.csvField("say \"hi\"") == "\"say \"\"hi\"\"\"")
        #expect(EntryReport.csvField("two\nlines") == "\"two\nlines\"")
        #expect(EntryReport.csvField("+1") == "'+1")
    }

    @Test func reportDaysAreReadAsAdminsWriteThem() {
        let today = CivilDate(year: 2026, month: 12, day: 8)  // a Tuesday
        #expect(ReportMoment(parsing: "tuesday", today: today)?.date == today, "today counts")
        #expect(ReportMoment(parsing: "Mon", today: today)?.date == CivilDate(year: 2026, month: 12, day: 7))
        #expect(ReportMoment(parsing: "wed", today: today)?.date == CivilDate(year: 2026, month: 12, day: 2))
        #expect(ReportMoment(parsing: "yesterday", today: today)?.date == CivilDate(year: 2026, month: 12, day: 7))
        #expect(ReportMoment(parsing: "2026-02-28 07:15", today: today) == ReportMoment(parsing: "2026-02-28", today: today).map { var m = $0; m.minuteOfDay = 435; return m })
        for bad in ["t", "someday", "2026-13-01", "2026-12-08 25:00"] { #expect(ReportMoment(parsing: bad, today: today) == nil, "\(bad)") }
    }
}
