import Foundation
import Testing

@testable import ArgumentParsing
@testable import fpmod

/// `fpmod manpage` and `fpmod completion bash` from the real binary, checked against a walk of
/// `Program.spec`: a command, option or argument added without reaching the man page and the
/// completion script (or without help text) fails here.
@Suite(.serialized) struct ManPageCompletionCLITests {
    /// Every command with its path, groups and their subcommands included.
    static let commands: [(path: [String], spec: CommandSpec)] = {
        var commands: [(path: [String], spec: CommandSpec)] = []
        func walk(_ command: CommandSpec, _ path: [String]) {
            commands.append((path, command))
            for sub in command.subcommands { walk(sub, path + [sub.name]) }
        }
        for command in Program.spec.commands { walk(command, [command.name]) }
        return commands
    }()

    /// The global options with the `--help` and `--version` the parser adds.
    static let globalOptions = Program.spec.effectiveGlobalOptions

    static func spellings(_ option: OptionSpec) -> [String] {
        ["--" + option.name] + (option.short.map { ["-" + String($0)] } ?? [])
    }

    static func isFileValue(_ option: OptionSpec) -> Bool {
        option.kind == .value && option.choices.isEmpty && BashCompletion.isFileName(option.valueName)
    }

    /// `fpmod manpage` with no SOURCE_DATE_EPOCH, whatever the environment of the test run holds.
    static func manPage(_ cli: CLI, _ arguments: [String] = [], epoch: String = "") throws -> CLI.Result {
        try cli.run(["manpage"] + arguments, environment: ["SOURCE_DATE_EPOCH": epoch])
    }

    /// The walks below trust the spec to be consistent (no option declared twice, say).
    @Test func specIsConsistent() {
        #expect(Program.spec.problems() == [])
    }

    // MARK: - Man page

    @Test func manPageIsReproducibleAndDatedOnlyWhenAsked() throws {
        let cli = CLI()
        let first = try Self.manPage(cli)
        #expect(first.status == 0)
        #expect(first.stderr.isEmpty)
        #expect(try Self.manPage(cli).stdout == first.stdout)
        #expect(first.stdout.contains("\n.TH \"FPMOD\" \"1\" \"\" \"\(Program.version)\" \"User Commands\"\n"))
        let dated = try Self.manPage(cli, ["--date", "2026-12-01"])
        #expect(dated.stdout.contains("\n.TH \"FPMOD\" \"1\" \"2026-12-01\" \"\(Program.version)\" \"User Commands\"\n"))
        #expect(try Self.manPage(cli, ["--date", "2026-12-01"]).stdout == dated.stdout)
        // SOURCE_DATE_EPOCH gives the UTC day; --date wins over it.
        #expect(try Self.manPage(cli, epoch: "1764547200").stdout.contains(".TH \"FPMOD\" \"1\" \"2025-12-01\" "))
        #expect(try Self.manPage(cli, ["--date", "2026-12-01"], epoch: "1764547200").stdout == dated.stdout)
        #expect(try Self.manPage(cli, ["--date", "tomorrow"]).status == 64)
        #expect(try Self.manPage(cli, epoch: "yesterday").status == 64)
    }

    @Test func dayOfAnEpoch() {
        #expect(ManpageCommand.day(epochSeconds: 0) == "1970-01-01")
        #expect(ManpageCommand.day(epochSeconds: 951_782_400) == "2000-02-29")
        #expect(ManpageCommand.day(epochSeconds: 1_764_547_199) == "2025-11-30")
        #expect(ManpageCommand.day(epochSeconds: 1_764_547_200) == "2025-12-01")
        #expect(ManpageCommand.isDay("2026-12-01") && !ManpageCommand.isDay("2026-1-01") && !ManpageCommand.isDay("2026/12/01"))
    }

    /// The lines of `page` after `header` up to the next line starting with one of `ends`.
    static func section(_ header: String, in page: String, until ends: [String]) -> String? {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: header) else { return nil }
        let end = lines[(start + 1)...].firstIndex { line in ends.contains { line.hasPrefix($0) } } ?? lines.endIndex
        return lines[(start + 1)..<end].map { $0 + "\n" }.joined()
    }

    /// Checks one option's entry in `text`: label, help and everything help shows about it.
    static func expectDocumented(_ option: OptionSpec, in text: String, place: String) {
        #expect(!option.help.isEmpty, "--\(option.name) of \(place) has no help text")
        var label = TroffText.bold("--" + option.name)
        if option.kind == .value { label += " " + TroffText.italic(option.valueName) }
        if let short = option.short { label = TroffText.bold("-" + String(short)) + ", " + label }
        #expect(text.contains(".TP\n" + label + "\n" + TroffText.prose(option.help) + "\n"), "--\(option.name) of \(place)")
        if let value = option.defaultValue {
            #expect(text.contains("Default: " + TroffText.bold(value) + "."), "default of --\(option.name) of \(place)")
        }
        if !option.choices.isEmpty {
            #expect(text.contains("Values: " + option.choices.map(TroffText.bold).joined(separator: ", ") + "."),
                    "choices of --\(option.name) of \(place)")
        }
        if let variable = option.environment {
            #expect(text.contains("Environment: " + TroffText.bold(variable) + "."), "env of --\(option.name) of \(place)")
        }
    }

    @Test func manPageDocumentsEveryCommandOptionArgumentAndVariable() throws {
        let page = try Self.manPage(CLI()).stdout
        let globals = try #require(Self.section(".SH GLOBAL OPTIONS", in: page, until: [".SH "]))
        for option in Self.globalOptions {
            Self.expectDocumented(option, in: globals, place: "the global options")
        }
        for (path, command) in Self.commands {
            let name = path.joined(separator: " ")
            #expect(!command.abstract.isEmpty, "'\(name)' has no abstract")
            guard let text = Self.section(".SS " + TroffText.argument(name), in: page, until: [".SS ", ".SH "]) else {
                Issue.record("'\(name)' has no subsection in COMMANDS")
                continue
            }
            #expect(text.hasPrefix(TroffText.bold("fpmod " + name)), "usage line of '\(name)'")
            #expect(text.contains(".PP\n" + TroffText.prose(command.abstract) + "\n"), "abstract of '\(name)'")
            for line in command.discussion.split(separator: "\n") where !line.isEmpty {
                #expect(text.contains(TroffText.prose(String(line))), "discussion of '\(name)'")
            }
            for argument in command.arguments {
                #expect(!argument.help.isEmpty, "<\(argument.name)> of '\(name)' has no help text")
                #expect(text.contains(".TP\n" + TroffText.italic(argument.name)), "<\(argument.name)> of '\(name)'")
                #expect(text.contains(TroffText.prose(argument.help)), "help of <\(argument.name)> of '\(name)'")
            }
            for option in command.options {
                Self.expectDocumented(option, in: text, place: "'\(name)'")
            }
            for sub in command.subcommands {
                #expect(text.contains(TroffText.bold(sub.name)), "'\(sub.name)' listed under '\(name)'")
            }
        }
        let environment = try #require(Self.section(".SH ENVIRONMENT", in: page, until: [".SH "]))
        for option in Self.globalOptions + Self.commands.flatMap(\.spec.options) {
            if let variable = option.environment {
                #expect(environment.contains(".TP\n" + TroffText.bold(variable) + "\n"), "\(variable) in ENVIRONMENT")
            }
        }
        let status = try #require(Self.section(".SH EXIT STATUS", in: page, until: [".SH "]))
        for code in ExitCode.allCases {
            #expect(status.contains(".TP\n\\fB\(code.rawValue)\\fR\n" + TroffText.prose(code.meaning) + "\n"), "exit status \(code.rawValue)")
        }
    }

    static let groff = ExternalTools.find("groff")
    static let man = ExternalTools.find("man")
    static let lexgrog = ExternalTools.find("lexgrog")

    @Test(.enabled(if: ManPageCompletionCLITests.groff != nil, "groff is not installed"))
    func groffFindsNothingToWarnAbout() throws {
        let directory = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/fpmod.1"
        try Self.manPage(CLI(), ["--date", "2026-12-01"]).stdout.write(toFile: path, atomically: true, encoding: .utf8)
        for device in ["utf8", "ascii", "ps"] {
            let result = try ExternalTools.run(Self.groff!, ["-man", "-ww", "-z", "-T" + device, path])
            #expect(result.status == 0 && result.stderr.isEmpty, "groff -man -ww -z -T\(device): \(result.stderr)")
        }
        if let man = Self.man {
            let result = try ExternalTools.run(man, ["--warnings", "-l", path], environment: ["MANWIDTH": "80"])
            #expect(result.status == 0 && result.stderr.isEmpty, "man --warnings -l: \(result.stderr)")
            #expect(result.stdout.contains("fpmod enroll [--finger LABEL] [--captures N]"))
            #expect(result.stdout.contains("FPMOD_BACKUP_PASSPHRASE"))
        }
        if let lexgrog = Self.lexgrog {
            // What mandb and apropos read from NAME.
            let result = try ExternalTools.run(lexgrog, [path])
            #expect(result.status == 0)
            #expect(result.stdout.contains("\"fpmod - Drive UART fingerprint modules"), "lexgrog: \(result.stdout)")
        }
    }

    // MARK: - Bash completion

    /// COMPREPLY for each line from the script the binary prints, in a directory holding `marker.txt`.
    static func complete(_ lines: [[String]]) throws -> [[String]] {
        let script = try CLI().run(["completion", "bash"])
        try #require(script.status == 0)
        let directory = try ExternalTools.temporaryDirectory(files: ["marker.txt"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try ExternalTools.complete(script: script.stdout, function: "_fpmod", lines: lines, directory: directory)
    }

    static let bashPresent = FileManager.default.isExecutableFile(atPath: "/bin/bash")

    @Test(.enabled(if: ManPageCompletionCLITests.bashPresent, "no /bin/bash"))
    func completionScriptIsValidBashAndReproducible() throws {
        let cli = CLI()
        let script = try cli.run(["completion", "bash"])
        #expect(script.status == 0 && script.stderr.isEmpty)
        #expect(try cli.run(["completion", "bash"]).stdout == script.stdout)
        #expect(try cli.run(["completion"]).status == 64)
        let path = cli.directory + "/fpmod.bash"
        try script.stdout.write(toFile: path, atomically: true, encoding: .utf8)
        let check = try ExternalTools.run("/bin/bash", ["-n", path])
        #expect(check.status == 0 && check.stderr.isEmpty, "bash -n: \(check.stderr)")
        let registered = try ExternalTools.run("/bin/bash", ["--norc", "-c", "source \"$0\" && complete -p fpmod", path])
        #expect(registered.stdout == "complete -F _fpmod fpmod\n")
    }

    /// `fpmod en<TAB>` and `fpmod --sim-profile <TAB>`, as a bash that sourced the script does them.
    @Test(.enabled(if: ManPageCompletionCLITests.bashPresent, "no /bin/bash"))
    func completesCommandNamesAndChoices() throws {
        let replies = try Self.complete([["fpmod", "en"], ["fpmod", "enr"], ["fpmod", "--sim-profile", ""], ["fpmod", "config", ""]])
        #expect(replies[0].contains("enroll"))
        #expect(replies[0].sorted() == Program.spec.commands.map(\.name).filter { $0.hasPrefix("en") }.sorted())
        #expect(replies[1] == ["enroll"])
        let profile = try #require(Program.spec.globalOptions.first { $0.name == "sim-profile" })
        #expect(!profile.choices.isEmpty)
        #expect(replies[2] == profile.choices)
        #expect(replies[3] == ["check"])
    }

    /// Every command word, every option of every command and of the global set, and the values
    /// of those that take one: choices, file names, or nothing (the word is the value).
    @Test(.enabled(if: ManPageCompletionCLITests.bashPresent, "no /bin/bash"))
    func completesEveryCommandAndOptionOfTheSpec() throws {
        var lines: [[String]] = [["fpmod", ""]]
        var expected: [[String]] = [Program.spec.commands.map(\.name) + ["help"]]
        var what: [String] = ["the commands"]
        func add(_ line: [String], _ reply: [String], _ description: String) {
            lines.append(["fpmod"] + line)
            expected.append(reply)
            what.append(description)
        }
        let globalWords = Self.globalOptions.flatMap(Self.spellings)
        for (path, command) in Self.commands {
            let name = path.joined(separator: " ")
            if !command.subcommands.isEmpty {
                add(path + [""], command.subcommands.map(\.name), "the subcommands of '\(name)'")
                add(["help"] + path + [""], command.subcommands.map(\.name), "the subcommands of 'help \(name)'")
            }
            let optionWords = command.options.flatMap(Self.spellings) + globalWords
            add(path + ["-"], optionWords, "the options of '\(name)'")
            for option in command.options + Self.globalOptions {
                for spelling in Self.spellings(option) {
                    let place = "\(spelling) of '\(name)'"
                    if option.kind == .flag {
                        add(path + [spelling, "-"], optionWords, "the options after the flag \(place)")
                    } else if !option.choices.isEmpty {
                        add(path + [spelling, ""], option.choices, "the choices of \(place)")
                    } else if Self.isFileValue(option) {
                        add(path + [spelling, "m"], ["marker.txt"], "file names for \(place)")
                    } else {
                        add(path + [spelling, "-"], [], "the value of \(place) (no options offered)")
                    }
                }
            }
        }
        // After a global option's value (or a flag) the command name is still completed.
        for option in Self.globalOptions {
            for spelling in Self.spellings(option) {
                add(option.kind == .flag ? [spelling, "enr"] : [spelling, "x", "enr"], ["enroll"], "a command after \(spelling)")
            }
        }
        let replies = try Self.complete(lines)
        #expect(replies.count == lines.count)
        for index in lines.indices where index < replies.count {
            #expect(replies[index].sorted() == expected[index].sorted(), "\(what[index]): \(lines[index].joined(separator: " "))")
        }
    }
}
