import FingerprintModule
import FingerprintProtocol
import ModuleSimulator
import SerialPort
import Testing
import TestSupport

/// The driver end to end against the simulated module, over real pseudo-terminals.
@Suite struct SimulatorTests {
    @Test(arguments: [(SimulatorProfile.r503, ModuleFamily.r50x), (.as608, .as608), (.r307, .r30x)])
    func connectsAndDetectsTheFamily(_ profile: SimulatorProfile, _ family: ModuleFamily) throws {
        let sim = try SimulatorHarness(profile: profile)
        #expect(sim.module.bootByteSeen)
        #expect(sim.module.family == family)
        #expect(sim.module.capacity == profile.capacity)
        #expect(sim.module.packetSize == 128)
        if family == .r50x {
            #expect(sim.module.templateSize == profile.templateSize)
            #expect(sim.module.imageSize == (profile.imageWidth, profile.imageHeight))
        }
    }

    @Test func verifiesThePasswordAndExplainsAMissingOne() throws {
        let sim = try SimulatorHarness(profile: .r503, modulePassword: 0xCAFE, driverPassword: 0xCAFE)
        #expect(try sim.module.templateCount() == 0)

        let locked = try SimulatorHarness(profile: .r503, modulePassword: 0xCAFE, family: .r50x, connect: false)
        let error = expectThrows(ModuleError.self) { try locked.module.connect() }
        #expect(error?.isTransportFailure == false)
        #expect(error?.description.contains("--password") == true)
    }

    @Test(arguments: [SimulatorProfile.r503, .r307])
    func enrollsAndIdentifies(_ profile: SimulatorProfile) throws {
        let sim = try SimulatorHarness(profile: profile)
        try sim.enroll("alice", slot: 5)
        #expect(sim.server.library.keys.sorted() == [5])
        #expect(try sim.module.templateCount() == 1)
        #expect(try sim.module.readIndexTable().occupied == [5])

        try sim.waitForCapture(.noFinger)
        sim.server.touch("alice")
        var outcome = IdentifyOutcome.noFinger
        for _ in 0..<50 where outcome == .noFinger { outcome = try sim.module.identify() }
        guard case let .match(slot, score) = outcome else {
            Issue.record("alice was not identified: \(outcome)")
            return
        }
        #expect(slot == 5)
        #expect(score > 0)

        try sim.waitForCapture(.noFinger)
        sim.server.touch("mallory")
        outcome = .noFinger
        for _ in 0..<50 where outcome == .noFinger { outcome = try sim.module.identify() }
        #expect(outcome == .noMatch)
    }

    @Test func roundTripsATemplate() throws {
        let sim = try SimulatorHarness(profile: .r503)
        try sim.enroll("bob", slot: 1)
        try sim.module.loadTemplate(buffer: 1, slot: 1)
        let template = try sim.module.uploadTemplate(buffer: 1)
        #expect(template.count == SimulatorProfile.r503.templateSize)
        try sim.module.downloadTemplate(template, buffer: 1)
        try sim.module.store(buffer: 1, slot: 9)
        #expect(sim.server.library[9] == sim.server.library[1])
        try sim.module.loadTemplate(buffer: 1, slot: 9)
        #expect(try sim.module.uploadTemplate(buffer: 1) == template)
    }

    @Test(arguments: [PacketSize.bytes32, .bytes256])
    func uploadsTemplatesAfterAPacketSizeChange(_ size: PacketSize) throws {
        let sim = try SimulatorHarness(profile: .r307)
        try sim.enroll("carol", slot: 0)
        try sim.module.setPacketSize(size)
        #expect(sim.module.packetSize == size.bytes)
        try sim.module.loadTemplate(slot: 0)
        let template = try sim.module.uploadTemplate()
        #expect(template.count == SimulatorProfile.r307.templateSize)
    }

    @Test(arguments: [SimulatorProfile.r503, .r307])
    func uploadsAnImage(_ profile: SimulatorProfile) throws {
        let sim = try SimulatorHarness(profile: profile)
        sim.server.place("dave")
        try sim.waitForCapture(.captured)
        let image = try sim.module.uploadImage()
        #expect(image.width == profile.imageWidth)
        #expect(image.height == profile.imageHeight)
        #expect(image.pngData().count > 100)
    }

    @Test func changesTheBaudRateAndReProbesAfterAPowerCycle() throws {
        let sim = try SimulatorHarness(profile: .r307)
        let change = try sim.module.setBaudRate(115_200)
        #expect(change.requested == 115_200)
        #expect(change.pendingPowerCycle)  // the simulator applies baud changes after a power cycle
        if change.pendingPowerCycle {
            #expect(change.answeredAt == 57_600)
            sim.server.powerCycle()
            let rate = try sim.module.reconnect(preferring: [115_200])
            #expect(rate == 115_200)
        }
        #expect(sim.port.baudRate == 115_200)
        #expect(try sim.module.templateCount() == 0)
        #expect(sim.module.systemParameters?.baudRate == 115_200)
    }

    @Test func changesTheAddress() throws {
        let sim = try SimulatorHarness(profile: .r503)
        try sim.module.setAddress(0x1122_3344)
        #expect(sim.module.address == 0x1122_3344)
        #expect(try sim.module.templateCount() == 0)
        #expect(sim.server.status().address == "11223344")
    }

    @Test func recoversFromAPowerCycleWithAPassword() throws {
        let sim = try SimulatorHarness(profile: .r503, modulePassword: 0x0BAD_F00D, driverPassword: 0x0BAD_F00D)
        try sim.enroll("erin", slot: 2)
        sim.server.powerCycle()
        #expect(try sim.module.templateCount() == 1)
        #expect(sim.server.status().passwordVerified)
    }

    @Test func survivesCorruptDropAndGarbageOnIdempotentCommands() throws {
        let sim = try SimulatorHarness(profile: .r307)
        for fault in [Fault.corrupt, .drop, .garbage] {
            sim.server.fault(fault)
            #expect(try sim.module.templateCount() == 0, "after fault \(fault)")
        }
    }

    @Test func aCorruptedStoreReplyIsReportedNotRepeated() throws {
        let sim = try SimulatorHarness(profile: .r307)
        try sim.enroll("frank", slot: 3)
        let handledBefore = sim.server.status().commandsHandled
        sim.server.fault(.corrupt)
        let error = expectThrows(ModuleError.self) { try sim.module.store(buffer: 1, slot: 4) }
        guard case .corruptedReply(.store, _) = error else {
            Issue.record("expected .corruptedReply, got \(String(describing: error))")
            return
        }
        #expect(sim.server.status().commandsHandled == handledBefore + 1)
    }

    @Test func aSilentModuleTimesOutThenRecovers() throws {
        let sim = try SimulatorHarness(profile: .r307)
        sim.server.fault(.silence)
        let error = expectThrows(ModuleError.self) { try sim.module.templateCount() }
        guard case .timeout(.templateCount, _) = error else {
            Issue.record("expected .timeout, got \(String(describing: error))")
            return
        }
        sim.server.fault(.none)
        #expect(try sim.module.templateCount() == 0)
    }

    @Test func opensByPathAndProbesTheBaudRate() throws {
        let server = try ModuleSimulatorServer(.init(profile: .as608, timing: .instant, baudRate: 19_200))
        server.start()
        defer { server.stop() }
        let module = try FingerprintModule.open(port: server.devicePath, timeouts: SimulatorHarness.timeouts())
        #expect(module.answeredBaudRate == 19_200)
        #expect(module.family == .as608)
        #expect(try module.templateCount() == 0)
    }

    @Test func runsTheR503ExtrasAndSoftReset() throws {
        let sim = try SimulatorHarness(profile: .r503, modulePassword: 0x55AA, driverPassword: 0x55AA)
        try sim.module.setAuraLED(.breathing, color: .blue, speed: 0x40, count: 2)
        #expect(try sim.module.readProductInfo() == sim.module.productInfo)
        #expect(try sim.module.firmwareVersion().isEmpty == false)
        #expect(try sim.module.algorithmVersion().isEmpty == false)
        #expect(try sim.module.checkSensor())
        try sim.module.writeNotepad(page: 3, data: Array("hello".utf8))
        #expect(try sim.module.readNotepad(page: 3) == Array("hello".utf8) + [UInt8](repeating: 0, count: 27))
        _ = try sim.module.randomNumber()
        #expect(try sim.module.softReset())
        #expect(sim.server.status().passwordVerified)
        #expect(try sim.module.templateCount() == 0)
        // AS608-only instructions are refused before sending.
        #expect(throws: ModuleError.self) { try sim.module.setLED(on: true) }
    }

    @Test func deletesAndEmpties() throws {
        let sim = try SimulatorHarness(profile: .as608)
        try sim.enroll("gina", slot: 10)
        try sim.module.store(buffer: 1, slot: 11)
        #expect(try sim.module.readIndexTable().occupied == [10, 11])
        try sim.module.deleteTemplates(start: 10)
        #expect(sim.module.indexTable?.occupied == [11])
        #expect(try sim.module.readIndexTable().occupied == [11])
        try sim.module.setLED(on: false)
        try sim.module.emptyLibrary()
        #expect(try sim.module.templateCount() == 0)
        #expect(throws: ModuleError.self) { try sim.module.store(slot: 300) }  // capacity 300: refused locally
    }
}
