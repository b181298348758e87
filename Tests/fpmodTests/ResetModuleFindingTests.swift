import Foundation
import Testing

/// Issue 10, item 2: with a paired store, a module that answers at the factory address is
/// "not the module paired with this store", from the CLI and from doctor alike (one opener),
/// never "no module / check the wiring". The real binary and its in-process simulator.
@Suite(.serialized)
struct ResetModuleFindingTests {
    static let finding = "a module answers at the factory address, not at the paired one: this is not the module paired with this store"

    /// Paired, then the simulated module loses its flash: factory address and password again.
    static func pairedThenReset() throws -> CLI {
        let cli = CLI()
        let paired = try cli.sim(["pair"])
        #expect(paired.status == 0, "\(paired.stderr)")
        try FileManager.default.removeItem(atPath: cli.simulatorState)
        return cli
    }

    @Test func theCLISaysItIsNotThePairedModule() throws {
        let cli = try Self.pairedThenReset()
        let identify = try cli.sim(["identify"], finger: "alice-right-index")
        #expect(identify.status == 77, "\(identify.stderr)")
        #expect(identify.stderr.contains(Self.finding), "\(identify.stderr)")
        #expect(try cli.auditEvents().contains("module-reset"))
    }

    @Test func doctorSaysItIsNotThePairedModuleInsteadOfAWiringFix() throws {
        let cli = try Self.pairedThenReset()
        let doctor = try cli.sim(["doctor"])
        #expect(doctor.status == 1)
        #expect(doctor.stdout.contains(Self.finding), "\(doctor.stdout)")
        #expect(doctor.stdout.contains("fpmod pair --force"))
        #expect(!doctor.stdout.contains("TX↔RX"), "no wiring checklist for a module that answers: \(doctor.stdout)")
    }
}
