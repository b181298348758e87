import Testing
@testable import GPIO

@Suite struct MemoryChipOutputTests {
    @Test func historyRecordsRequestAndChangesOnly() throws {
        let clock = StepClock()
        let chip = MemoryChip(lineNames: ["touch", "relay"], clock: { clock.read() })
        let relay = try chip.requestOutput(offset: 1, consumer: "door", initialValue: false, activeLow: false)
        #expect(chip.outputLevel(offset: 1) == false)
        try relay.set(true)
        try relay.set(true)
        try relay.set(false)
        #expect(chip.outputHistory.map(\.active) == [false, true, false])
        #expect(chip.outputHistory.allSatisfy { $0.offset == 1 })
        let stamps = chip.outputHistory.map(\.timestampNanoseconds)
        #expect(stamps == stamps.sorted() && Set(stamps).count == 3)
    }

    @Test func activeLowOutputInvertsThePin() throws {
        let chip = MemoryChip(lineCount: 1)
        let relay = try chip.requestOutput(offset: 0, consumer: "door", initialValue: false, activeLow: true)
        #expect(chip.outputLevel(offset: 0) == true)
        try relay.set(true)
        #expect(chip.outputLevel(offset: 0) == false)
        #expect(chip.level(offset: 0) == false)
        #expect(chip.outputHistory.last == .init(offset: 0, active: true, level: false,
                                                 timestampNanoseconds: chip.outputHistory.last!.timestampNanoseconds))
    }

    @Test func releaseDrivesInactiveFirst() throws {
        let chip = MemoryChip(lineCount: 1)
        let relay = try chip.requestOutput(offset: 0, consumer: "door", initialValue: true, activeLow: true)
        #expect(chip.outputLevel(offset: 0) == false)  // energised, active-low
        relay.release()
        #expect(chip.outputLevel(offset: 0) == true)
        #expect(chip.outputHistory.last?.active == false)
        #expect(chip.consumer(offset: 0) == nil)
        relay.release()  // twice is harmless
        #expect(chip.outputHistory.count == 2)
    }

    @Test func droppingTheLineReleasesIt() throws {
        let chip = MemoryChip(lineCount: 1)
        do {
            let relay = try chip.requestOutput(offset: 0, consumer: "door", initialValue: false, activeLow: false)
            try relay.set(true)
        }
        #expect(chip.outputLevel(offset: 0) == false)
        #expect(chip.consumer(offset: 0) == nil)
    }

    @Test func setAfterReleaseFails() throws {
        let chip = MemoryChip(name: "sim0", lineCount: 1)
        let relay = try chip.requestOutput(offset: 0, consumer: "door", initialValue: false, activeLow: false)
        relay.release()
        #expect(throws: GPIOError.lineReleased(chip: "sim0", offset: 0)) { try relay.set(true) }
    }
}

@Suite struct MemoryChipRequestTests {
    @Test func secondRequestIsBusyAndNamesTheHolder() throws {
        let chip = MemoryChip(name: "sim0", lineCount: 2)
        let first = try chip.requestInput(offset: 1, consumer: "fpmod", edges: .both, bias: .asIs, activeLow: false)
        #expect(throws: GPIOError.lineBusy(chip: "sim0", offset: 1, consumer: "fpmod")) {
            _ = try chip.requestOutput(offset: 1, consumer: "other", initialValue: false, activeLow: false)
        }
        first.release()
        _ = try chip.requestOutput(offset: 1, consumer: "other", initialValue: false, activeLow: false)
    }

    @Test func staleLineCannotTouchALaterRequest() throws {
        let chip = MemoryChip(name: "sim0", lineCount: 1)
        let old = try chip.requestInput(offset: 0, consumer: "a", edges: .both, bias: .asIs, activeLow: false)
        old.release()
        let current = try chip.requestInput(offset: 0, consumer: "b", edges: .both, bias: .asIs, activeLow: false)
        #expect(throws: GPIOError.lineReleased(chip: "sim0", offset: 0)) { try old.value() }
        old.release()
        #expect(chip.consumer(offset: 0) == "b")
        chip.drive(offset: 0, level: true)
        #expect(try current.readEvents().count == 1)
    }

    @Test func offsetOutOfRange() {
        let chip = MemoryChip(name: "sim0", lineCount: 9)
        #expect(throws: GPIOError.offsetOutOfRange(chip: "sim0", offset: 9, lineCount: 9)) {
            _ = try chip.requestInput(offset: 9, consumer: "t", edges: .none, bias: .asIs, activeLow: false)
        }
        #expect(throws: GPIOError.offsetOutOfRange(chip: "sim0", offset: -1, lineCount: 9)) {
            _ = try chip.requestOutput(offset: -1, consumer: "t", initialValue: false, activeLow: false)
        }
    }

    @Test func biasUnsupportedWhenTheChipCannotPull() throws {
        let chip = MemoryChip(name: "old", lineNames: [nil], supportsBias: false)
        #expect(throws: GPIOError.biasUnsupported(chip: "old", offset: 0, bias: .pullUp)) {
            _ = try chip.requestInput(offset: 0, consumer: "t", edges: .both, bias: .pullUp, activeLow: true)
        }
        _ = try chip.requestInput(offset: 0, consumer: "t", edges: .both, bias: .asIs, activeLow: true)
    }

    @Test func debounceIsRecordedOrRefusedLikeLibgpiodOne() throws {
        let chip = MemoryChip(name: "new", lineNames: [nil, nil])
        let debounced = try chip.requestInput(offset: 0, consumer: "t", edges: .both, bias: .asIs, activeLow: true,
                                              debounceMicroseconds: 10_000)
        let plain = try chip.requestInput(offset: 1, consumer: "t", edges: .both, bias: .asIs, activeLow: true)
        #expect(chip.debounceMicroseconds(offset: 0) == 10_000)
        #expect(chip.debounceMicroseconds(offset: 1) == 0)
        withExtendedLifetime((debounced, plain)) {}
        let old = MemoryChip(name: "old", lineNames: [nil], supportsDebounce: false)
        #expect(throws: GPIOError.debounceUnsupported(chip: "old", offset: 0, libgpiodVersion: "1 (simulated)")) {
            _ = try old.requestInput(offset: 0, consumer: "t", edges: .both, bias: .asIs, activeLow: true,
                                     debounceMicroseconds: 5_000)
        }
        _ = try old.requestInput(offset: 0, consumer: "t", edges: .both, bias: .asIs, activeLow: true)
    }

    @Test func linesAreFoundByName() {
        let chip = MemoryChip(lineNames: ["touch", nil, "relay"])
        #expect(chip.lineOffset(named: "relay") == 2)
        #expect(chip.lineOffset(named: "buzzer") == nil)
    }

    @Test func presetLayoutNamesEachRoleAtItsOffset() throws {
        let vm = MemoryChip(preset: try BoardPreset.load(name: "gpio-vm", searchPaths: []))
        #expect(vm.lineCount == 16, "as many lines as the VM's chip, not just up to the last role")
        for role in LineRole.allCases {
            #expect(vm.lineOffset(named: role.rawValue) != nil)
        }
        #expect(vm.lineOffset(named: "exit-button") == 2)
        let pi = MemoryChip(preset: try BoardPreset.load(name: "rpi4", searchPaths: []))
        #expect(pi.lineOffset(named: "exit-button") == 27)
        #expect(pi.lineCount == 58)
        #expect(MemoryChip(preset: try BoardPreset.load(name: "usb-serial", searchPaths: [])).lineCount == 0)
    }
}
