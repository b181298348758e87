import Administration
import Benchmarks
import Diagnostics
import DoctorRun
import Foundation
import JSONValue
import ReaderSessions
import Synchronization
import TemplateStore
import Testing
import TestSupport

/// A second front end — what a web console or a kiosk is — built from the library targets
/// alone, without the `fpmod` executable: it runs doctor, a bench and an enrollment, and hears
/// about them through its own sinks and its own prompts, not a terminal.
@Suite struct SecondFrontEndTests {
    /// What this front end shows: lines it would put on a page.
    final class Page: Sendable {
        let lines = Mutex<[String]>([])
        func show(_ line: String) { lines.withLock { $0.append(line) } }
        var all: [String] { lines.withLock { $0 } }
    }

    static func readerOptions(_ folder: ScratchFolder, page: Page, profile: String = "r307") -> ReaderOptions {
        var options = ReaderOptions()
        options.simulator = SimulatorOptions(profile: profile, statePath: folder.file("sim.state"))
        options.storeDatabase = folder.file("store.db")
        options.storeKey = folder.file("store.key")
        options.progress = { page.show($0) }
        return options
    }

    @Test func doctorRunsAndItsChecksAreValues() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let checks = Doctor.examine(Doctor.Request(reader: Self.readerOptions(folder, page: Page()), port: nil))
        let module = try #require(checks.first { $0.id == "module" }, "\(checks.map(\.id))")
        #expect(module.verdict == .ok)
        #expect(module.seen.contains("family r30x"))
        #expect(checks.first { $0.id == "module.password" }?.verdict == .warning, "the factory password is a finding")
        #expect(checks.first { $0.id == "module.password" }?.fix?.contains("fpmod pair") == true)
        #expect(!FileManager.default.fileExists(atPath: folder.file("store.db")), "doctor creates nothing")
    }

    @Test func aBenchReportsToItsOwnSinkAndAsJSON() throws {
        var settings = BenchSettings(cycles: 3, templates: 5, timing: .instant, commands: 0, transfers: 0, baudRate: 57_600,
                                     profile: .r307, hardware: false)
        settings.librarySizes = [5]
        let page = Page()
        var text = BenchOutput(json: false, write: page.show)
        try ModuleBench.run(settings, reader: ReaderOptions(), into: &text, progress: page.show)
        #expect(text.finish() == nil, "text was written part by part")
        #expect(page.all.contains { $0.contains("3 identify cycles") }, "\(page.all)")
        #expect(page.all.contains { $0.hasPrefix("fpmod bench: r307 simulator in this process") }, "\(page.all)")

        var json = BenchOutput(json: true, write: { Issue.record("JSON mode wrote text: \($0)") })
        try ModuleBench.run(settings, reader: ReaderOptions(), into: &json, progress: { _ in })
        guard case .object(let report)? = json.finish(), case .object(let target)? = report["target"] else {
            Issue.record("no JSON report with a target")
            return
        }
        #expect(target["simulated"] == .bool(true))
        #expect(target["templates"] == .int(5))
    }

    @Test(arguments: ["r307", "fpc1020"])
    func anEnrollmentPromptsThroughThisFrontEnd(profile: String) throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let page = Page()
        let store = try TemplateStore(databasePath: folder.file("store.db"), keyPath: folder.file("store.key"))
        let session = try ReaderSession.open(Self.readerOptions(folder, page: page, profile: profile), store: store,
                                             virtualFinger: "carol-thumb")
        defer { session.close() }
        var prompts: [EnrollProgress] = []
        let result = try session.reader.enroll(user: "carol", displayName: nil, label: "left-thumb",
                                               captures: session.reader.defaultEnrollCaptures, admin: false, duress: false) {
            prompts.append($0)
            page.show($0.description)
        }
        let touches = session.reader.defaultEnrollCaptures
        #expect(prompts.filter { if case .placeFinger = $0 { true } else { false } }.count >= touches, "\(prompts)")
        #expect(prompts.contains(.placeFinger(capture: 1, of: touches)))
        #expect(try store.fingers(of: "carol").map(\.label) == ["left-thumb"])
        _ = result
        guard case .match(let found) = try session.reader.identify() else {
            Issue.record("the finger enrolled through this front end was not found")
            return
        }
        #expect(found.user == "carol")
    }
}

/// The layering architecture.md draws, read from the sources: only the CLI parses command
/// lines, no library imports a front end, and the service imports no simulator.
@Suite struct LayeringTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources").path

    static func imports(of target: String) throws -> Set<String> {
        let folder = sources + "/" + target
        let files = FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        var found: Set<String> = []
        for file in files {
            for line in try String(contentsOfFile: folder + "/" + file, encoding: .utf8).split(separator: "\n")
            where line.hasPrefix("import ") || line.hasPrefix("@testable import ") {
                found.insert(String(line.split(separator: " ").last ?? ""))
            }
        }
        return found
    }

    @Test func onlyTheCommandLineToolParsesCommandLines() throws {
        let targets = try FileManager.default.contentsOfDirectory(atPath: Self.sources)
        #expect(targets.contains("ReaderSessions") && targets.contains("fpmod"), "the sources were not found at \(Self.sources)")
        for target in targets where !["fpmod", "ArgumentParsing"].contains(target) {
            let imports = try Self.imports(of: target)
            #expect(!imports.contains("ArgumentParsing"), "\(target) imports ArgumentParsing")
            #expect(!imports.contains("fpmod"), "\(target) imports the fpmod executable")
        }
    }

    @Test func theServiceImportsNoSimulator() throws {
        let imports = try Self.imports(of: "DoorLock")
        #expect(!imports.contains("ModuleSimulator") && !imports.contains("ImageSensorSimulator"), "\(imports.sorted())")
    }
}
