import Foundation
import Testing
@testable import Benchmarks

/// `fpmod bench power-loss`: a short campaign through the real binary (CI's power-loss tier
/// runs 1,000 cuts), and its checks shown to catch what they are for.
@Suite(.serialized) struct PowerLossCampaignTests {
    /// One cut per write path, each checked after a real restart of the service.
    @Test func everyWritePathSurvivesACut() throws {
        let cli = CLI()
        let result = try cli.run(["bench", "power-loss", "--iterations", "\(PowerLossOperation.all.count)", "--jobs", "4", "--json"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let report = result.json?["powerLoss"] as? [String: Any]
        #expect(report?["iterations"] as? Int == PowerLossOperation.all.count)
        #expect(report?["passed"] as? Bool == true, "\(String(describing: report?["problems"]))")
    }

    /// A finger row removed behind the module's back (the half of a delete the store saw) is
    /// a disagreement, and a state that is neither before nor after is named.
    @Test func theChecksCatchAHalfAppliedDelete() throws {
        let cli = CLI()
        #expect(try cli.sim(["enroll", "alice"], finger: "alice-right-index").status == 0)
        #expect(try cli.sim(["enroll", "bob"], finger: "bob-right-index").status == 0)
        let directory = cli.directory
        // CLI keeps the store as store.db and the key as key beside it, as the campaign does.
        try #require(FileManager.default.fileExists(atPath: directory + "/" + PowerLossBaseline.databaseName))
        try #require(FileManager.default.fileExists(atPath: directory + "/" + PowerLossBaseline.flashName))
        #expect(PowerLossSnapshot.disagreements(directory: directory).isEmpty)
        let before = try PowerLossSnapshot.read(directory: directory, afterAuditID: 0).get()
        #expect(before.integrity == ["ok"])
        #expect(before.view.contains { $0.hasPrefix("finger|bob|right-index|1|") })

        _ = try PowerLossSnapshot.sqlite3(database: directory + "/" + PowerLossBaseline.databaseName,
                                          query: "DELETE FROM fingers WHERE slot = 1;").get()
        #expect(PowerLossSnapshot.disagreements(directory: directory) == ["the module holds slot 1, which the store gives nobody"])
        let after = try PowerLossSnapshot.read(directory: directory, afterAuditID: 0).get()
        #expect(after.view != before.view)
        #expect(difference(after.view, before.view).hasPrefix("missing finger|bob|right-index|1|"))
    }
}
