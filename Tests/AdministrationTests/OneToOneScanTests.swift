import Administration
import FingerprintModule
import TemplateStore
import Testing

/// The door's 1:1 scan on a module, once a card has said who: a Search of one page per finger of
/// that user on the simulated module, over a real pseudo-terminal.
@Suite struct OneToOneScanTests {
    @Test func comparesWithThatUsersSlotsOnly() throws {
        let bench = try Bench()
        let admin = try bench.open()
        try bench.enroll(admin, "alice")
        try bench.enroll(admin, "bob")
        try bench.enroll(admin, "bob", label: "left-thumb")
        let bobSlots = Set(try bench.store.fingers(of: "bob").map(\.slot))
        var timing = IdentifyTiming()

        bench.server.touch("bob-left-thumb", times: 1)
        guard case .match(let slot, _) = try admin.scanOnce(verifying: "bob", timing: &timing) else {
            Issue.record("bob's left thumb did not match 1:1")
            return
        }
        #expect(bobSlots.contains(slot))
        #expect(timing.searchEnd >= timing.extractEnd && timing.extractEnd > 0)

        bench.server.touch("alice-right-index", times: 1)
        #expect(try admin.scanOnce(verifying: "bob", timing: &timing) == .noMatch)
        try bench.store.addUser(name: "carol")
        bench.server.touch("alice-right-index", times: 1)
        #expect(try admin.scanOnce(verifying: "carol", timing: &timing) == .noMatch, "carol has no finger to compare with")
        bench.server.lift()
        #expect(try admin.scanOnce(verifying: "bob", timing: &timing) == .noFinger)
    }
}
