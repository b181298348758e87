import Administration
import FingerprintProtocol
import ModuleSimulator
import TemplateStore
import Testing

@Suite(.serialized) struct PairingTests {
    @Test func pairingSetsRandomCredentialsAndEveryOpenRechecksThem() throws {
        let bench = try Bench()
        let admin = try bench.open()
        try bench.enroll(admin, "alice")
        #expect(throws: AdministrationError.alreadyPaired) {
            try admin.pair()
            try admin.pair()
        }
        let identity = try #require(try bench.store.moduleIdentity())
        #expect(identity.address != Frame.defaultAddress && identity.password != 0)
        #expect(bench.server.status().passwordSet)
        #expect(bench.server.status().address == String(format: "%08X", identity.address))
        let reopened = try bench.open()
        #expect(reopened.finding == .verified)
        #expect(try bench.identify(reopened, finger: "alice-right-index").matchedUser == "alice")
    }

    @Test func aResetOrFreshModuleIsReportedNotTrusted() throws {
        let bench = try Bench()
        try bench.open().pair()
        try bench.swapModule(.init(profile: .r307))
        #expect(throws: AdministrationError.untrustedModule(.reset)) { try bench.open() }
        #expect(bench.auditEvents.last == "module-reset")
        // Replaced on purpose: pair again, then sync writes the templates back.
        let forced = try bench.open(allowUntrusted: true)
        try forced.pair(force: true)
        #expect(try bench.open().finding == .verified)
    }

    @Test func aModuleOfAnotherKindWithThePairedCredentialsIsSwapped() throws {
        let bench = try Bench()
        try bench.open().pair()
        let identity = try #require(try bench.store.moduleIdentity())
        try bench.swapModule(.init(profile: .r503, password: identity.password, address: identity.address))
        do {
            _ = try bench.open()
            Issue.record("a swapped module was trusted")
        } catch AdministrationError.untrustedModule(.swapped(let detail)) {
            #expect(detail.contains("family"))
        }
    }

    @Test(arguments: ["pair.before-module-write", "pair.after-password", "pair.after-address"])
    func interruptedPairingIsCompletedAtNextOpen(point: String) throws {
        let bench = try Bench()
        let admin = try bench.open()
        try bench.enroll(admin, "alice")
        admin.failpoint = { if $0 == point { throw Crash(at: $0) } }
        #expect(throws: Crash(at: point)) { try admin.pair() }
        let reopened = try bench.open()
        #expect(reopened.finding == .pairingCompleted)
        let identity = try #require(try bench.store.moduleIdentity())
        #expect(bench.server.status().address == String(format: "%08X", identity.address))
        #expect(try bench.open().finding == .verified)
        #expect(try bench.identify(reopened, finger: "alice-right-index").matchedUser == "alice")
    }
}
