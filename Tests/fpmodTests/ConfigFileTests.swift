import Foundation
import Glibc
import Testing

/// `fpmod config check` on what people get wrong in a config file: JSON syntax (with line and
/// column), keys given twice (both positions), baud rates (the same twelve as --baud) and hooks
/// whose program cannot run.
@Suite(.serialized) struct ConfigFileTests {
    private func check(_ cli: CLI, _ text: String) throws -> CLI.Result {
        let path = cli.directory + "/config.json"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return try cli.run(["config", "check", path])
    }

    @Test func aSyntaxErrorSaysItsLineAndColumn() throws {
        let cli = CLI()
        let missingComma = try check(cli, "{\n  \"board\": \"usb-serial\"\n  \"serialPort\": \"/dev/ttyUSB0\"\n}\n")
        #expect(missingComma.status == 78)
        #expect(missingComma.stdout.contains("line 3, column 3: not valid JSON: expected ',' or '}' after the value of \"board\""), "\(missingComma.stdout)")
        let trailing = try check(cli, "{\"board\": \"usb-serial\",\n}")
        #expect(trailing.status == 78)
        #expect(trailing.stdout.contains("line 2, column 1: not valid JSON: a comma before '}'"), "\(trailing.stdout)")
        let unquoted = try check(cli, "{\"board\": usb}")
        #expect(unquoted.stdout.contains("line 1, column 11"), "\(unquoted.stdout)")
        #expect(!unquoted.stdout.contains("The data is not in the correct format"))
    }

    @Test func aKeyGivenTwiceIsRefusedWithBothPositions() throws {
        let cli = CLI()
        let result = try check(cli, "{\"board\": \"usb-serial\",\n \"policy\": {\"graceSeconds\": 10,\n   \"graceSeconds\": 20}}")
        #expect(result.status == 78)
        #expect(result.stdout.contains("policy.graceSeconds: the key appears twice, at line 2, column 13 and at line 3, column 4"),
                "\(result.stdout)")
    }

    @Test func baudRatesAreTheTwelveThatBaudAccepts() throws {
        let cli = CLI()
        #expect(try check(cli, #"{"board": "usb-serial", "baudRate": 28800}"#).status == 0)
        let odd = try check(cli, #"{"board": "usb-serial", "baudRate": 10000}"#)
        #expect(odd.status == 78)
        let list = "9600, 19200, 28800, 38400, 48000, 57600, 67200, 76800, 86400, 96000, 105600, 115200"
        #expect(odd.stdout.contains(list), "\(odd.stdout)")
        let option = try cli.run(["--sim", "--baud", "10000", "info"])
        #expect(option.status == 64)
        #expect(option.stderr.contains(list), "\(option.stderr)")
        #expect(try cli.run(["--sim", "--baud", "28800", "info"]).status == 0)
    }

    @Test func hooksMustNameAnExecutableFile() throws {
        let cli = CLI()
        let script = cli.directory + "/notify.sh"
        try Data("#!/bin/sh\n".utf8).write(to: URL(fileURLWithPath: script))
        #expect(chmod(script, 0o644) == 0)
        let config = """
            {"board": "usb-serial", "hooks": {"onUnlock": ["\(cli.directory)/missing", "x"], "onDeny": ["\(script)"],
             "onAlarm": ["no-such-program-fpmod"], "onLockout": ["true"], "onDuress": ["/bin/sh", "-c", "true"]}}
            """
        let result = try check(cli, config)
        #expect(result.status == 78)
        #expect(result.stdout.contains("hooks.onUnlock: \(cli.directory)/missing does not exist"), "\(result.stdout)")
        #expect(result.stdout.contains("hooks.onDeny: \(script) is not an executable file"))
        #expect(result.stdout.contains("hooks.onAlarm: no program 'no-such-program-fpmod'"))
        #expect(!result.stdout.contains("hooks.onLockout"))
        #expect(!result.stdout.contains("hooks.onDuress"))
        #expect(chmod(script, 0o755) == 0)
        let fixed = try check(cli, """
            {"board": "usb-serial", "hooks": {"onDeny": ["\(script)"], "onLockout": ["true"]}}
            """)
        #expect(fixed.status == 0, "\(fixed.stdout)")
    }
}
