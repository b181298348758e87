import Foundation
import Glibc
import Testing
@testable import GPIO

/// These run on every host. Where /dev has GPIO chips (a Pi, the gpio-vm guest) the listing
/// and open paths are exercised for real; on a host without any, the error paths are.
@Suite struct LibgpiodChipTests {
    private func characterDevicesNamedGpiochip() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/dev")) ?? []).filter { name in
            var status = stat()
            return name.hasPrefix("gpiochip") && lstat("/dev/" + name, &status) == 0
                && status.st_mode & S_IFMT == S_IFCHR
        }
    }

    @Test func listChipsReportsEveryChipDevice() {
        let chips = LibgpiodChip.listChips()
        #expect(Set(chips.map(\.name)) == Set(characterDevicesNamedGpiochip()))
        for chip in chips where chip.problem == nil {
            #expect(chip.lineCount > 0)
            #expect(chip.path == "/dev/" + chip.name)
        }
    }

    @Test func listChipsSkipsFilesThatAreNotCharacterDevices() throws {
        let folder = NSTemporaryDirectory() + "fake-dev-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = FileManager.default.createFile(atPath: folder + "/gpiochip0", contents: Data())
        try FileManager.default.createSymbolicLink(atPath: folder + "/gpiochip4", withDestinationPath: "/dev/null")
        #expect(LibgpiodChip.listChips(deviceDirectory: folder).isEmpty)
    }

    @Test func missingChipSaysWhatExists() {
        do {
            _ = try LibgpiodChip("gpiochip99")
            Issue.record("gpiochip99 opened")
        } catch {
            #expect(error == .chipNotFound(requested: "gpiochip99", available: LibgpiodChip.listChips()))
            #expect(error.description.contains("gpiochip99"))
            #expect(error.description.contains("gpiochip4"))  // the Pi 5 hint
        }
    }

    @Test func unknownLabelIsNotFound() {
        #expect(throws: GPIOError.chipNotFound(requested: "no-such-label", available: LibgpiodChip.listChips())) {
            _ = try LibgpiodChip("no-such-label")
        }
    }

    @Test func aFileThatIsNotAChipIsNotFound() throws {
        let path = NSTemporaryDirectory() + "not-a-chip-" + UUID().uuidString
        _ = FileManager.default.createFile(atPath: path, contents: Data("x".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: GPIOError.chipNotFound(requested: path, available: LibgpiodChip.listChips())) {
            _ = try LibgpiodChip(path: path)
        }
        #expect(throws: GPIOError.chipNotFound(requested: "/dev/null", available: LibgpiodChip.listChips())) {
            _ = try LibgpiodChip("/dev/null")
        }
    }

    @Test func identifiersMapToDevicePaths() {
        #expect(LibgpiodChip.devicePath(for: "4") == "/dev/gpiochip4")
        #expect(LibgpiodChip.devicePath(for: "gpiochip0") == "/dev/gpiochip0")
        #expect(LibgpiodChip.devicePath(for: "/dev/gpiochip2") == "/dev/gpiochip2")
    }

    @Test func everyListedChipOpensWithTheSameLabel() throws {
        for info in LibgpiodChip.listChips() where info.problem == nil {
            let chip = try LibgpiodChip(info.name)
            #expect(chip.label == info.label && chip.lineCount == info.lineCount && chip.name == info.name)
            #expect(throws: GPIOError.offsetOutOfRange(chip: chip.name, offset: chip.lineCount, lineCount: chip.lineCount)) {
                _ = try chip.requestInput(offset: chip.lineCount, consumer: "test", edges: .none, bias: .asIs, activeLow: false)
            }
        }
    }
}

@Suite struct GPIOErrorTextTests {
    @Test func chipNotFoundListsChipsOrSaysThereAreNone() {
        let none = GPIOError.chipNotFound(requested: "gpiochip0", available: []).description
        #expect(none.contains("no GPIO chip") && none.contains("--sim"))
        let pi5 = GPIOError.chipNotFound(requested: "gpiochip4", available: [
            GPIOChipInfo(name: "gpiochip0", path: "/dev/gpiochip0", label: "pinctrl-rp1", lineCount: 54),
        ]).description
        #expect(pi5.contains("gpiochip0 [pinctrl-rp1] (54 lines)"))
    }

    @Test func fixesAreNamed() {
        #expect(GPIOError.permissionDenied(path: "/dev/gpiochip0").description.contains("'gpio' group"))
        #expect(GPIOError.lineBusy(chip: "gpiochip0", offset: 18, consumer: "w1-gpio").description.contains("'w1-gpio'"))
        #expect(GPIOError.offsetOutOfRange(chip: "gpiochip0", offset: 40, lineCount: 28).description.contains("BCM"))
        #expect(GPIOError.biasUnsupported(chip: "c", offset: 1, bias: .pullUp).description.contains("as-is"))
    }

    /// The backend is chosen at build time from the <gpiod.h> found: it must be the major that
    /// pkg-config reports on this machine (1.6 on Debian 12, 2.x on Debian 13), and the library
    /// loaded at run time must be of that major too.
    @Test func backendMatchesTheLibgpiodOfThisMachine() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["pkg-config", "--modversion", "libgpiod"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "pkg-config does not know libgpiod")
        let version = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let major = try #require(version.split(separator: ".").first.flatMap { Int($0) }, "version '\(version)'")
        #expect(LibgpiodChip.apiMajor == major, "built for v\(LibgpiodChip.apiMajor), pkg-config says \(version)")
        #expect(LibgpiodChip.libraryVersion.hasPrefix("\(major)."), "loaded \(LibgpiodChip.libraryVersion)")
        #expect(LibgpiodChip.supportsDebounce == (major >= 2))
    }
}
