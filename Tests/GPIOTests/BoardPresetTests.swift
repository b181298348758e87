import Foundation
import Testing
@testable import GPIO

/// The documented presets: `boards/` at the package root.
let boardsFolder = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("boards").path

@Suite struct BuiltInPresetTests {
    @Test func everyPresetIsBuiltInAndValid() {
        #expect(BoardPreset.builtIn.map(\.name) == ["rpi3", "rpi4", "rpi-zero2w", "rpi5", "usb-serial", "gpio-vm"])
        for preset in BoardPreset.builtIn {
            #expect(preset.problems() == [], "\(preset.name)")
        }
    }

    @Test func jsonFilesAndEmbeddedTextAreIdentical() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: boardsFolder)
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }
        #expect(Set(files) == Set(BoardPreset.builtInJSON.map(\.key)))
        for (name, embedded) in BoardPreset.builtInJSON {
            let file = try String(contentsOfFile: "\(boardsFolder)/\(name).json", encoding: .utf8)
            #expect(file == embedded, "boards/\(name).json differs from BuiltInBoardPresets.swift: copy it over")
        }
    }

    @Test func eachFileNamesItselfAndLoadsLikeTheBuiltIn() throws {
        for builtIn in BoardPreset.builtIn {
            let fromFile = try BoardPreset.load(path: "\(boardsFolder)/\(builtIn.name).json")
            #expect(fromFile == builtIn)
        }
    }

    @Test func raspberryPiPresetsWireEveryRole() throws {
        for name in ["rpi3", "rpi4", "rpi-zero2w", "rpi5"] {
            let preset = try BoardPreset.load(name: name, searchPaths: [])
            #expect(preset.gpio?.header == "rpi-40pin")
            #expect(Set(preset.gpio?.lines.keys.map { $0 } ?? []) == Set(LineRole.allCases), "\(name)")
            #expect(preset.line(.touch)?.activeLow == nil, "touch polarity belongs to the module family")
            #expect(preset.line(.exitButton)?.activeLow == true)
            #expect(preset.line(.exitButton)?.bias == .pullUp)
            #expect(preset.line(.relay)?.offset == 18 && preset.line(.relay)?.pin == 12)
            #expect(!preset.wiring.isEmpty)
        }
        #expect(try BoardPreset.load(name: "rpi4", searchPaths: []).serialPort == "/dev/serial0")
        #expect(try BoardPreset.load(name: "rpi5", searchPaths: []).serialPort == "/dev/ttyAMA0")
    }

    @Test func gpioVMMatchesTheVMChip() throws {
        let vm = try BoardPreset.load(name: "gpio-vm", searchPaths: [])
        #expect(vm.serialPort == "/dev/ttyS1")
        #expect(vm.gpio?.chip == "gpiochip0" && vm.gpio?.chipLabel == "gpio-vm")
        let order: [LineRole] = [.touch, .relay, .exitButton, .doorContact, .tamper, .ledGreen, .ledRed, .buzzer, .modulePower]
        for (offset, role) in order.enumerated() {
            #expect(vm.line(role)?.offset == offset)
            #expect(vm.line(role)?.name == role.rawValue)
        }
    }

    @Test func eachChipSaysHowManyLinesItHas() throws {
        let counts = ["rpi3": 54, "rpi4": 58, "rpi-zero2w": 54, "rpi5": 54, "gpio-vm": 16]
        for (name, count) in counts {
            #expect(try BoardPreset.load(name: name, searchPaths: []).gpio?.lineCount == count, "\(name)")
        }
        var preset = try BoardPreset.load(name: "gpio-vm", searchPaths: [])
        preset.gpio?.lines[.buzzer] = LineAssignment(offset: 16, name: "buzzer")
        #expect(preset.problems() == ["gpio.lines.buzzer.offset: 16 is beyond gpiochip0's 16 lines (gpio-vm); use 0 to 15"])
        preset.gpio?.lineCount = 0
        #expect(preset.problems().contains("gpio.lineCount: 0 must be at least 1"))
    }

    @Test func usbSerialHasNoGPIO() throws {
        let usb = try BoardPreset.load(name: "usb-serial", searchPaths: [])
        #expect(usb.gpio == nil && usb.serialPort == "/dev/ttyUSB0")
        #expect(usb.resolveChip(available: []) == nil)
    }
}

@Suite struct PresetLoadingTests {
    private func temporaryFolder() throws -> String {
        let path = NSTemporaryDirectory() + "gpio-presets-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func fileInSearchPathWinsOverBuiltIn() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var custom = try BoardPreset.load(name: "rpi4", searchPaths: [])
        custom.serialPort = "/dev/ttyAMA0"
        try JSONEncoder().encode(custom).write(to: URL(fileURLWithPath: folder + "/rpi4.json"))
        let loaded = try BoardPreset.load(name: "rpi4", searchPaths: ["/nonexistent", folder])
        #expect(loaded.serialPort == "/dev/ttyAMA0")
    }

    @Test func unknownNameListsTheBuiltIns() {
        do {
            _ = try BoardPreset.load(name: "rpi9", searchPaths: ["/nonexistent"])
            Issue.record("expected notFound")
        } catch {
            #expect(error == .notFound(name: "rpi9", searched: ["/nonexistent"], available: BoardPreset.builtIn.map(\.name)))
            #expect(error.description.contains("rpi5"))
        }
    }

    @Test func missingKeyIsNamed() {
        let json = #"{"name": "x", "description": "d", "wiring": []}"#
        #expect(throws: BoardPresetError.invalidJSON(source: "t", detail: "missing key 'serialPort' at the top level")) {
            _ = try BoardPreset.decode(Data(json.utf8), source: "t")
        }
    }

    @Test func unknownRoleIsRejectedWithItsPath() throws {
        let json = #"{"name": "x", "description": "d", "serialPort": "/dev/ttyS0", "wiring": [],"#
            + #""gpio": {"chip": "gpiochip0", "lines": {"doorbell": {"offset": 3}}}}"#
        do {
            _ = try BoardPreset.decode(Data(json.utf8), source: "t")
            Issue.record("expected invalidJSON")
        } catch {
            guard case let .invalidJSON(_, detail) = error else { Issue.record("\(error)"); return }
            #expect(detail.contains("gpio.lines"))
        }
    }

    @Test func validationNamesEveryBadKey() throws {
        var preset = try BoardPreset.load(name: "rpi4", searchPaths: [])
        preset.name = "My Board"
        preset.serialPort = "ttyS0"
        preset.gpio?.lines[.buzzer] = LineAssignment(offset: 17, pin: 11)           // same as touch
        preset.gpio?.lines[.ledRed] = LineAssignment(offset: 25, pin: 21)           // GPIO25 is pin 22
        preset.gpio?.lines[.ledGreen] = LineAssignment(offset: 14, pin: 8)          // the UART
        preset.gpio?.lines[.modulePower] = LineAssignment(offset: 6, pin: 31, bias: .pullUp)
        preset.gpio?.lines[.tamper] = LineAssignment(offset: 30)
        let problems = preset.problems()
        for key in ["name:", "serialPort:", "gpio.lines.buzzer.offset: 17 is also touch",
                    "gpio.lines.buzzer.pin: 11 is also touch", "gpio.lines.led-red.pin: GPIO25 is pin 22",
                    "gpio.lines.led-green.offset: GPIO14", "gpio.lines.module-power.bias",
                    "gpio.lines.tamper.offset: GPIO30 is not on the 40-pin header"] {
            #expect(problems.contains { $0.hasPrefix(key) }, "\(key) in \(problems)")
        }
        #expect(problems.count == 8)
        #expect(throws: BoardPresetError.invalid(source: "t", problems: problems)) {
            _ = try BoardPreset.decode(JSONEncoder().encode(preset), source: "t")
        }
    }
}

@Suite struct ChipResolutionTests {
    let rpi5 = try! BoardPreset.load(name: "rpi5", searchPaths: [])

    @Test func currentPi5KernelUsesGpiochip0() {
        let chips = [GPIOChipInfo(name: "gpiochip0", path: "/dev/gpiochip0", label: "pinctrl-rp1", lineCount: 54),
                     GPIOChipInfo(name: "gpiochip10", path: "/dev/gpiochip10", label: "gpio-brcmstb@107d508500", lineCount: 32)]
        #expect(rpi5.resolveChip(available: chips) == "gpiochip0")
    }

    @Test func olderPi5KernelFindsTheRP1ByLabel() {
        let chips = (0..<4).map { GPIOChipInfo(name: "gpiochip\($0)", path: "/dev/gpiochip\($0)", label: "gpio-brcmstb@10\($0)", lineCount: 32) }
            + [GPIOChipInfo(name: "gpiochip4", path: "/dev/gpiochip4", label: "pinctrl-rp1", lineCount: 54)]
        #expect(rpi5.resolveChip(available: chips) == "gpiochip4")
    }

    @Test func unseenLabelFallsBackToTheDefaultName() {
        #expect(rpi5.resolveChip(available: []) == "gpiochip0")
    }
}
