import Foundation
import Testing

@testable import ArgumentParsing

@Suite("Man page")
struct ManPageFormatterTests {
    static let page = ManPageFormatter(program: SampleProgram.spec, seeAlso: ["sysexits.h(3head)"]).render()

    /// Text that troff would misread if it went in unescaped.
    static let awkward = ProgramSpec(
        name: "tool", abstract: ".start with a dot",
        discussion: "'quoted start\nBack\\slash \\fB and \"quotes\", --long-option, -v, a-b, `code --x`, 2–6 × 3… ä →\n\n. lone dot",
        version: "tool 1.0",
        globalOptions: [.option("dry-run", short: "n", valueName: "MODE", help: ".hidden? no: shown", default: "a-b",
                                env: "TOOL_DRY", choices: ["a-b", "c"])],
        commands: [CommandSpec(name: "go", abstract: "'Go' somewhere.", discussion: "\\\\server\\share",
                               arguments: [.positional("target", help: ".target")],
                               options: [.flag("fast", help: "'fast'", env: "TOOL_FAST")])])

    /// The section of `page` under `.SS "title"` (up to the next .SS or .SH).
    static func subsection(_ title: String, in page: String) -> String? {
        section(from: ".SS \"\(title)\"", in: page, until: [".SS ", ".SH "])
    }

    static func section(from header: String, in page: String, until ends: [String]) -> String? {
        let lines = page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: header) else { return nil }
        let rest = lines[(start + 1)...]
        let end = rest.firstIndex { line in ends.contains { line.hasPrefix($0) } } ?? lines.endIndex
        return lines[(start + 1)..<end].map { $0 + "\n" }.joined()
    }

    @Test func sectionsInOrder() {
        let headers = Self.page.split(separator: "\n").filter { $0.hasPrefix(".SH ") }
        #expect(headers == [".SH NAME", ".SH SYNOPSIS", ".SH DESCRIPTION", ".SH GLOBAL OPTIONS", ".SH COMMANDS",
                            ".SH ENVIRONMENT", ".SH EXIT STATUS", ".SH SEE ALSO"].map { Substring($0) })
        #expect(Self.page.contains(".SH NAME\nfpmod \\- Drive UART fingerprint modules and the door lock built on them\n"))
    }

    @Test func titleLineHasVersionAndOnlyAGivenDate() {
        #expect(Self.page.hasPrefix(#".\" fpmod(1), generated"#))
        #expect(Self.page.contains("\n.TH \"FPMOD\" \"1\" \"\" \"fpmod 0.1.0\" \"User Commands\"\n"))
        let dated = ManPageFormatter(program: SampleProgram.spec, date: "2026-12-01").render()
        #expect(dated.contains("\n.TH \"FPMOD\" \"1\" \"2026-12-01\" \"fpmod 0.1.0\" \"User Commands\"\n"))
    }

    @Test func reproducible() {
        #expect(ManPageFormatter(program: SampleProgram.spec, seeAlso: ["sysexits.h(3head)"]).render() == Self.page)
        #expect(ManPageFormatter(program: Self.awkward, date: "x").render() == ManPageFormatter(program: Self.awkward, date: "x").render())
    }

    @Test func globalOptionsShowEverythingHelpShows() throws {
        let globals = try #require(Self.section(from: ".SH GLOBAL OPTIONS", in: Self.page, until: [".SH "]))
        #expect(globals.contains("""
            .TP
            \\fB\\-p\\fR, \\fB\\-\\-port\\fR \\fIPATH\\fR
            Serial device of the module.
            Default: \\fB/dev/ttyS0\\fR.
            Environment: \\fBFPMOD_PORT\\fR.
            """))
        #expect(globals.contains(".TP\n\\fB\\-v\\fR, \\fB\\-\\-verbose\\fR\nSay more; repeat for even more.\nMay be repeated for more.\n"))
        #expect(globals.contains(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nShow help information."))
        #expect(globals.contains(".TP\n\\fB\\-\\-version\\fR\nShow the version."))
    }

    @Test func commandsWithUsageArgumentsAndOptions() throws {
        let enroll = try #require(Self.subsection("enroll", in: Self.page))
        #expect(enroll.hasPrefix(#"\fBfpmod enroll\fR [\fB\-\-finger\fR\ \fILABEL\fR] [\fB\-\-captures\fR\ \fIN\fR] [\fB\-\-timeout\fR\ \fIDURATION\fR] [\fB\-\-admin\fR] \fIname\fR"#))
        #expect(enroll.contains("\n.PP\nEnroll a finger for a user.\n.PP\nAsks for the finger several times"))
        #expect(enroll.contains(".TP\n\\fIname\\fR\nUser name.\n"))
        #expect(enroll.contains(".TP\n\\fB\\-c\\fR, \\fB\\-\\-captures\\fR \\fIN\\fR\nNumber of captures to merge.\nDefault: \\fB3\\fR.\n"))
        let delete = try #require(Self.subsection("delete", in: Self.page))
        #expect(delete.contains(#"[\fB\-\-tag\fR\ \fITEXT\fR] ... \fInames\fR ..."#))
        #expect(delete.contains(".TP\n\\fInames\\fR ...\nUsers to delete. May be given more than once.\n"))
        #expect(delete.contains("May be given more than once.\n.TP\n\\fB\\-\\-tag\\fR"))
        let sim = try #require(Self.subsection("sim", in: Self.page))
        #expect(sim.contains("Values: \\fBr307\\fR, \\fBas608\\fR, \\fBr503\\fR.\nDefault: \\fBr307\\fR.\nEnvironment: \\fBFPMOD_PROFILE\\fR."))
        #expect(sim.contains("[\\fIlink\\fR]"))
        let config = try #require(Self.subsection("config", in: Self.page))
        #expect(config.hasPrefix("\\fBfpmod config\\fR \\fIsubcommand\\fR\n"))
        #expect(config.contains("Subcommands: \\fBcheck\\fR."))
        let check = try #require(Self.subsection("config check", in: Self.page))
        #expect(check.contains("Validate the configuration file."))
        #expect(check.contains(".TP\n\\fIfile\\fR\nConfig file. Optional.\n"))
        #expect(Self.page.contains(".SS \"help\"\n\\fBfpmod help\\fR [\\fIcommand\\fR]"))
    }

    @Test func environmentNamesEachVariableAndItsOption() throws {
        let environment = try #require(Self.section(from: ".SH ENVIRONMENT", in: Self.page, until: [".SH "]))
        #expect(environment == """
            .TP
            \\fBFPMOD_PORT\\fR
            The value of \\fB\\-\\-port\\fR when that is not given: Serial device of the module.
            .TP
            \\fBFPMOD_PASSWORD\\fR
            The value of \\fB\\-\\-password\\fR when that is not given: Module password.
            .TP
            \\fBFPMOD_SIM\\fR
            Sets \\fB\\-\\-sim\\fR when it is 1, true, yes or on: Use the built-in simulator instead of a serial port.
            .TP
            \\fBFPMOD_PROFILE\\fR
            The value of \\fB\\-\\-profile\\fR of \\fBfpmod sim\\fR when that is not given: Module family to simulate.

            """)
    }

    @Test func sharedVariablesListEveryCommand() {
        let option = OptionSpec.option("passphrase", valueName: "TEXT", help: "Passphrase.", env: "PASS")
        let program = ProgramSpec(name: "t", abstract: "T.", commands: [
            CommandSpec(name: "backup", abstract: "B.", options: [option]),
            CommandSpec(name: "restore", abstract: "R.", options: [option])
        ])
        #expect(ManPageFormatter(program: program).render().contains(
            "\\fBPASS\\fR\nThe value of \\fB\\-\\-passphrase\\fR of \\fBt backup\\fR and \\fBt restore\\fR when that is not given: Passphrase.\n"))
    }

    @Test func exitStatusListsEveryCode() throws {
        let status = try #require(Self.section(from: ".SH EXIT STATUS", in: Self.page, until: [".SH "]))
        for code in ExitCode.allCases {
            #expect(!code.meaning.isEmpty)
            #expect(status.contains(".TP\n\\fB\(code.rawValue)\\fR\n\(TroffText.prose(code.meaning))\n"), "exit status \(code.rawValue)")
        }
        #expect(Self.page.hasSuffix(".SH SEE ALSO\n\\fBfpmod help\\fR \\fIcommand\\fR,\n\\fBsysexits.h\\fR(3head)\n"))
    }

    @Test func proseEscaping() {
        #expect(TroffText.prose("--sim-gpio, -v and (--config) but right-index, ZFM-20") == "\\-\\-sim\\-gpio, \\-v and (\\-\\-config) but right-index, ZFM-20")
        #expect(TroffText.prose("a\\b") == "a\\eb")
        #expect(TroffText.prose("run `fpmod run --sim` now") == "run \\fBfpmod run \\-\\-sim\\fR now")
        #expect(TroffText.prose("2–6 × 3… ä") == "2\\(en6 \\(mu 3... \\[u00E4]")
        #expect(TroffText.literal("right-index") == "right\\-index")
        #expect(TroffText.argument("say \"hi\"") == "\"say \\(dqhi\\(dq\"")
        #expect(TroffText.line(".x") == "\\&.x")
        #expect(TroffText.line("'x") == "\\&'x")
        #expect(TroffText.line("x.y") == "x.y")
    }

    /// No text line is read as a request and no escape is left unpaired, whatever the spec holds.
    @Test func awkwardTextNeverBecomesARequest() {
        let page = ManPageFormatter(program: Self.awkward).render()
        let requests: Set<String> = [".\\\"", ".TH", ".SH", ".SS", ".TP", ".PP", ".br", ".nh", ".ad"]
        for line in page.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
            let request = String(line.prefix { $0 != " " })
            #expect(requests.contains(request), "'\(line)' would be read as a request")
        }
        #expect(page.contains("\n\\&'quoted start\n"))
        #expect(page.contains("Back\\eslash \\efB and \"quotes\", \\-\\-long\\-option, \\-v, a-b, \\fBcode \\-\\-x\\fR, 2\\(en6 \\(mu 3... \\[u00E4] \\(->\n"))
        #expect(page.contains("\n\\&. lone dot\n"))
        #expect(page.contains("\n\\&.hidden? no: shown\n"))
        #expect(page.contains("Default: \\fBa\\-b\\fR."))
        #expect(page.contains("\\e\\eserver\\eshare"))
        #expect(page.contains(".SH NAME\ntool \\- .start with a dot\n"))
    }

    static let groff = ExternalTools.find("groff")
    static let man = ExternalTools.find("man")

    /// groff with every warning on: no complaints about the sample page or the awkward one.
    @Test(.enabled(if: ManPageFormatterTests.groff != nil, "groff is not installed"))
    func groffReportsNoWarnings() throws {
        let directory = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (name, page) in [("sample.1", Self.page), ("awkward.1", ManPageFormatter(program: Self.awkward, date: "2026-12-01").render())] {
            let path = directory + "/" + name
            try page.write(toFile: path, atomically: true, encoding: .utf8)
            // -Tascii has no ä for the awkward page; every glyph the sample uses it has.
            for device in name == "awkward.1" ? ["utf8", "ps"] : ["utf8", "ascii", "ps"] {
                let result = try ExternalTools.run(Self.groff!, ["-man", "-ww", "-z", "-T" + device, path])
                #expect(result.status == 0 && result.stderr.isEmpty, "groff -T\(device) \(name): \(result.stderr)")
            }
        }
    }

    @Test(.enabled(if: ManPageFormatterTests.man != nil, "man-db is not installed"))
    func manReportsNoWarnings() throws {
        let directory = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/fpmod.1"
        try Self.page.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try ExternalTools.run(Self.man!, ["--warnings", "-l", path], environment: ["MANWIDTH": "80"])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        #expect(result.stdout.contains("fpmod enroll [--finger LABEL]"))
    }
}
