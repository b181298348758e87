import DoorLock
import Foundation
import Provisioning
import Testing
import TestSupport

/// The config file setup writes: only what it learned, valid by `config check`'s rules, and
/// back through `LockConfig.load` as written.
@Suite struct SetupConfigFileTests {
    @Test func theFileWrittenFromAnswersLoadsBackAsTheService() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let file = SetupConfigFile(board: "rpi4", serialPort: "/dev/serial0", baudRate: 115_200, family: "r50x",
                                   storeDatabase: "/var/lib/fpmod/fpmod.db", storeKey: "/etc/fpmod/store.key")
        let text = try file.text()
        #expect(SetupConfigFile.problems(in: text, source: "test").isEmpty)
        let path = folder.file("nested/dir/config.json")
        try SetupConfigFile.write(text, to: path)
        let config = try LockConfig.load(path: path)
        #expect(config.board == "rpi4")
        #expect(config.serialPort == "/dev/serial0")
        #expect(config.baudRate == 115_200)
        #expect(config.family == .r50x)
        #expect(config.storeDatabase == "/var/lib/fpmod/fpmod.db")
        #expect(config.storeKey == "/etc/fpmod/store.key")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == text)
    }

    @Test func theFactoryBaudRateIsLeftOutAndABadBoardIsNamed() throws {
        let plain = SetupConfigFile(board: "usb-serial", serialPort: nil, baudRate: 57_600, family: nil,
                                    storeDatabase: "/s.db", storeKey: "/s.key")
        #expect(try !plain.text().contains("baudRate"))
        var bad = plain
        bad.board = "no-such-board"
        let problems = SetupConfigFile.problems(in: try bad.text(), source: "test")
        #expect(!problems.isEmpty)
        #expect(problems.joined().contains("no-such-board"))
    }

    @Test func theSuggestedPathFollowsRootAndXDG() {
        #expect(SetupConfigFile.defaultPath(euid: 0, environment: ["HOME": "/root"]) == SetupConfigFile.installedPath)
        #expect(SetupConfigFile.defaultPath(euid: 1000, environment: ["HOME": "/home/pi", "XDG_CONFIG_HOME": "/x"]) == "/x/fpmod/config.json")
        #expect(SetupConfigFile.defaultPath(euid: 1000, environment: ["HOME": "/home/pi", "XDG_CONFIG_HOME": "rel"])
                == "/home/pi/.config/fpmod/config.json", "a relative XDG_CONFIG_HOME is ignored, as the spec says")
        #expect(SetupConfigFile.defaultPath(euid: 1000, environment: [:]) == "/.config/fpmod/config.json")
    }

    @Test func theBoardFollowsTheDeviceTreeModel() {
        #expect(BoardDetection.presetName(forModel: "Raspberry Pi 5 Model B Rev 1.0") == "rpi5")
        #expect(BoardDetection.presetName(forModel: "Raspberry Pi 400 Rev 1.0") == "rpi4")
        #expect(BoardDetection.presetName(forModel: "Raspberry Pi Zero 2 W Rev 1.0") == "rpi-zero2w")
        #expect(BoardDetection.presetName(forModel: "Raspberry Pi 3 Model B Plus Rev 1.3") == "rpi3")
        #expect(BoardDetection.presetName(forModel: "Rock Pi 4") == "usb-serial")
        #expect(BoardDetection.presetName(forModel: nil) == "usb-serial")
        #expect(BoardDetection.builtInNames.contains("rpi4"))
    }
}
