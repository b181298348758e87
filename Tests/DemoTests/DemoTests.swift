@testable import Demo
import DoorLock
import Foundation
import ModuleSimulator
import Synchronization
import Testing

/// The demo as a library: its latency table and narrator on their own, and the whole story
/// played through `DemoShow` with its lines collected, as a kiosk would show them.
@Suite struct DemoTests {
    final class Lines: Sendable {
        let items = Mutex<[String]>([])
        func append(_ line: String) { items.withLock { $0.append(line) } }
        var all: [String] { items.withLock { $0 } }
        var text: String { all.joined(separator: "\n") }
    }

    @Test func eachStageIsMeasuredBetweenItsStampsAndAMissingStampIsNoNumber() {
        var timing = ScanTiming()
        (timing.edge, timing.captureStart, timing.captureEnd) = (1_000_000, 3_000_000, 103_000_000)
        (timing.extractEnd, timing.searchEnd, timing.decision) = (403_000_000, 413_000_000, 414_000_000)
        timing.relayOn = 0  // the relay never switched on
        let stages = DemoLatencyTable.stages(timing)
        #expect(Array(stages.prefix(5)) == [2, 100, 300, 10, 1])
        #expect(stages[5].isNaN && stages[6].isNaN)

        let table = DemoLatencyTable.render([.init(label: "alice, scene 2", timing: timing)], limit: [0, 1, 2, 3, 0, 0, 6],
                                            limitLabel: "module + wire limit")
        let lines = table.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines[0].hasSuffix("  start  capture  extract   search   decide    relay    total"), "\(lines[0])")
        #expect(lines[2].hasPrefix("  alice, scene 2") && lines[2].hasSuffix("2.0    100.0    300.0     10.0      1.0        –        –"), "\(lines[2])")
        // The limit has no start, decide or relay: only the module and the wire are bounded.
        #expect(lines[4].hasSuffix("–      1.0      2.0      3.0        –        –      6.0"), "\(lines[4])")
    }

    @Test func theLimitIsTheDatasheetTimesPlusTheRepliesOnTheWire() {
        let limit = DemoLatencyTable.limit(profile: .r307, baudRate: 57_600, templates: 3)
        #expect(limit.count == DemoLatencyTable.columns.count)
        #expect(limit[1] > Double(SimulatorProfile.r307.captureMilliseconds))
        #expect(limit[2] > Double(SimulatorProfile.r307.extractMilliseconds))
        #expect(abs(limit[6] - (limit[1] + limit[2] + limit[3])) < 1e-9)
        // More templates to search cost more.
        #expect(DemoLatencyTable.limit(profile: .r307, baudRate: 57_600, templates: 300)[3] > limit[3])
    }

    @Test func theNarratorNumbersScenesAndMarksTheSilentEvents() {
        let lines = Lines()
        var narrator = DemoNarrator(fast: true, output: { lines.append($0) })
        narrator.scene("First")
        narrator.result("done")
        let shown = narrator.showEvents([LockEvent(name: "match", fields: ["user": "bob", "slot": "2"]),
                                         LockEvent(name: "duress", fields: ["user": "bob"], isPublic: false)], from: 0)
        narrator.scene("Second")
        #expect(shown == 2)
        // Each heading underlined to its length.
        #expect(lines.all == ["\nScene 1: First\n" + String(repeating: "─", count: 14), "  ✔ done", "    event: match slot=2 user=bob",
                              "    (silent, not on the events socket) duress user=bob", "\nScene 2: Second\n" + String(repeating: "─", count: 15)])
    }

    @Test func theWholeStoryPlaysThroughTheLibraryAndLeavesNothingBehind() throws {
        let story = Lines()
        let serviceLog = Lines()
        let show = try DemoShow(fast: true, output: { story.append($0) }, serviceLog: { serviceLog.append($0) })
        defer { show.tearDown() }
        try show.play()
        show.tearDown()
        let text = story.text
        for scene in 1...7 { #expect(text.contains("Scene \(scene): "), "scene \(scene) missing") }
        #expect(text.contains("✔ match: alice"))
        #expect(text.contains("pager (hooks.onDuress): DURESS user=bob"))
        #expect(text.contains("✔ latency table: 3 unlocks measured"))
        #expect(serviceLog.all.contains { $0.hasPrefix("stopped") }, "the service stopped: \(serviceLog.all)")
        // The stage's directory is named on the first lines, and gone.
        let directory = try #require(text.split(separator: "\n").first { $0.contains("store   a temporary directory") }?
            .split(separator: " ").last.map(String.init))
        #expect(!FileManager.default.fileExists(atPath: directory), "\(directory)")
    }
}
