@testable import Diagnostics
@testable import fpmod
import Testing

@Suite struct DoctorModuleStoreTests {
    @Test func silentModuleGetsTheWiringChecklist() {
        var facts = DoctorFixtures.healthyPi5()
        facts.module = .failed(.silent(port: "/dev/ttyAMA0", triedBaudRates: [57600, 115200]))
        let checks = DoctorChecks.evaluate(facts)
        let module = checks[id: "module"]
        #expect(module.verdict == .problem)
        #expect(module.seen.contains("57600, 115200"))
        for step in ["TX↔RX crossed", "common ground", "3.3 V logic", "power", "/dev/ttyAMA0, not /dev/serial0"] {
            #expect(module.fix?.contains(step) == true, "\(step)")
        }
        #expect(!checks.contains { $0.id == "module.baud" }, "no baud verdict without an answer")
        #expect(DoctorChecks.exitStatus(checks) == 1)
    }

    @Test(arguments: [UInt8(0x13), 0x21])
    func passwordRequired(code: UInt8) {
        var facts = DoctorFixtures.healthyPi5()
        facts.module = .failed(.passwordRequired(code: code))
        let module = DoctorChecks.evaluate(facts)[id: "module"]
        #expect(module.verdict == .problem)
        #expect(module.fix?.contains("paired to another store") == true)
        #expect(module.fix?.contains("fpmod unpair") == true && module.fix?.contains("docs/recovery.md") == true)
    }

    @Test func answeredAtAnotherBaudIsAWarning() {
        var facts = DoctorFixtures.healthyPi5()
        facts.module = DoctorFixtures.answered(baud: 115_200, configured: 57600)
        let checks = DoctorChecks.evaluate(facts)
        #expect(checks[id: "module"].verdict == .ok)
        #expect(checks[id: "module"].seen.contains("3 of 200 templates"))
        #expect(checks[id: "module"].seen.contains("A1B2C3D4"))
        #expect(checks[id: "module.baud"].verdict == .warning)
        #expect(checks[id: "module.baud"].fix?.contains("--baud 115200") == true)
        #expect(checks[id: "module.password"].verdict == .ok)
        #expect(DoctorChecks.exitStatus(checks) == 0)
    }

    @Test func factoryPasswordSuggestsPairing() {
        var facts = DoctorFixtures.healthyPi5()
        facts.module = DoctorFixtures.answered(password: .factory)
        let password = DoctorChecks.evaluate(facts)[id: "module.password"]
        #expect(password.verdict == .warning)
        #expect(password.fix?.hasPrefix("fpmod pair") == true)
    }

    @Test func wrongAddressAndCorruption() {
        var facts = DoctorFixtures.healthyPi4()
        facts.module = .failed(.wrongAddress(expected: 0xFFFF_FFFF, seen: 0x0000_1234))
        #expect(DoctorChecks.evaluate(facts)[id: "module"].fix?.contains("--address 00001234") == true)
        facts.port = PortFacts(path: "/dev/serial0", resolvedPath: "/dev/ttyS0", source: .commandLine,
                               node: DoctorFixtures.node("/dev/serial0"), open: .opened)
        facts.module = .failed(.corrupted("3 checksum errors"))
        #expect(DoctorChecks.evaluate(facts)[id: "module"].fix?.contains("disable-bt") == true)
    }

    @Test func storeModesKeyAndPairing() {
        var facts = DoctorFixtures.healthyPi4()
        facts.store.database = DoctorFixtures.node(facts.store.databasePath, mode: 0o600, owner: "alice", group: "alice")
        facts.store.directory = DoctorFixtures.node("/home/alice/.local/share/fpmod", mode: 0o700, owner: "alice", group: "alice")
        facts.store.key = DoctorFixtures.node(facts.store.keyPath, mode: 0o600, owner: "alice", group: "alice")
        facts.store.pairing = .paired(family: "r50x", address: 0xA1B2_C3D4, pairedAt: "2025-03-01")
        var checks = DoctorChecks.evaluate(facts)
        #expect(checks[id: "store"].verdict == .ok)
        #expect(checks[id: "store.key"].verdict == .ok)
        #expect(checks[id: "store.pairing"].verdict == .ok)

        facts.store.key?.mode = 0o644
        facts.store.database?.mode = 0o644
        facts.store.pairing = .none
        checks = DoctorChecks.evaluate(facts)
        #expect(checks[id: "store"].verdict == .warning)
        #expect(checks[id: "store.key"].verdict == .problem)
        #expect(checks[id: "store.key"].fix?.hasPrefix("chmod 600 /home/alice/.config/fpmod/store.key") == true)
        #expect(checks[id: "store.pairing"].verdict == .warning)

        facts.store.key = nil
        facts.store.pairing = .unknown(reason: "the key file is missing, so the pairing cannot be read.")
        checks = DoctorChecks.evaluate(facts)
        #expect(checks[id: "store.key"].verdict == .problem)
        #expect(checks[id: "store.pairing"].verdict == .skipped)
    }
}
