@testable import Diagnostics
@testable import HostMatching
import MinutiaeExtraction
import TemplateStore
import Testing
import TestSupport

/// `store.template-format`: real stores in a scratch folder, read as `fpmod doctor` reads them;
/// each stored template also goes through the matcher's gallery, so the check and the matcher
/// cannot drift apart.
@Suite struct TemplateFormatTests {
    /// A template this matcher reads: one impression in format 3.
    static let currentTemplate: [UInt8] = {
        let minutiae = (0..<16).map { (index: Int) -> RidgeMinutia in
            let x = Float(20 + 9 * index), y = Float(30 + 7 * index), angle = Float(index) * 0.37
            return RidgeMinutia(x: x, y: y, angle: angle, kind: index.isMultiple(of: 2) ? .ending : .bifurcation, quality: 0.8)
        }
        let print = ExtractedPrint(width: 192, height: 192, minutiae: minutiae, blockSize: 8, blocksAcross: 24, blocksDown: 24,
                                   foreground: Array(repeating: true, count: 24 * 24),
                                   quality: PrintQuality(score: 60, area: 0.9, clarity: 0.4))
        return TemplateEnvelope.wrap(TemplateCoding.encode([print]), format: TemplateEnvelope.fpmodFormat)
    }()

    /// A libfprint print in its frame, as fpmod's first image-sensor matcher stored it (format 1).
    static let olderTemplate = TemplateEnvelope.wrap(Array("FP3 an NBIS print".utf8), format: TemplateEnvelope.libfprintFormat)

    private static func makeStore(_ folder: ScratchFolder, kind: String?, _ fill: (TemplateStore) throws -> Void) throws {
        let store = try TemplateStore(databasePath: folder.file("store.db"), keyPath: folder.file("store.key"))
        if let kind { try store.setValue(kind, forKey: TemplateStore.readerKindKey) }
        try fill(store)
    }

    private static func facts(_ folder: ScratchFolder) -> StoreFacts {
        SystemFacts.store(databasePath: folder.file("store.db"), keyPath: folder.file("store.key"), describe: { "\($0)" })
    }

    private static func check(_ facts: StoreFacts) -> DoctorCheck {
        var doctor = DoctorFacts()
        doctor.store = facts
        let found = DoctorChecks.evaluate(doctor).filter { $0.id == "store.template-format" }
        #expect(found.count == 1)
        return found.first ?? DoctorCheck("missing", "", .skipped, "")
    }

    @Test func theMatcherAgreesWithTheFixtures() {
        #expect(HostTemplate(bytes: Self.currentTemplate).format == HostTemplate.currentFormat)
        #expect(HostTemplate.olderFormats[HostTemplate(bytes: Self.olderTemplate).format ?? 0] != nil)
        #expect(HostTemplate(bytes: [0x03, 0x01, 0x5A]).format == nil)
        #expect(HostTemplate(bytes: Array("FPMH".utf8) + [2]).format == nil, "a header cut short is no format")
        #expect((try? MinutiaeGallery([HostTemplate(bytes: Self.currentTemplate)]))?.count == 1)
        let error = expectThrows(HostMatchingError.self) { try MinutiaeGallery([HostTemplate(bytes: Self.olderTemplate)]) }
        #expect(error == .olderTemplateFormat(index: 0))
        // fpmod's own first formats (minutiae without the ridges' directions; with them but
        // without the ridge pixels): enroll again too.
        for format in [TemplateEnvelope.minutiaeOnlyFormat, TemplateEnvelope.directionsFormat] {
            let older = TemplateEnvelope.wrap(Array(Self.currentTemplate.dropFirst(TemplateEnvelope.headerSize)), format: format)
            #expect(HostTemplate(bytes: older).format.flatMap { HostTemplate.olderFormats[$0] } != nil)
            let refused = expectThrows(HostMatchingError.self) { try MinutiaeGallery([HostTemplate(bytes: older)]) }
            #expect(refused == .olderTemplateFormat(index: 0))
        }
    }

    @Test func anImageSensorsStoreInTodaysFormatIsOK() throws {
        let folder = ScratchFolder(prefix: "diagnostics-format")
        defer { folder.remove() }
        try Self.makeStore(folder, kind: "image-sensor") { store in
            try store.addUser(name: "alice")
            try store.addFinger(user: "alice", label: "right-index", slot: 0, template: Self.currentTemplate, quality: 60)
            try store.addFinger(user: "alice", label: "left-index", slot: 1, template: Self.currentTemplate, quality: 60)
        }
        let facts = Self.facts(folder)
        #expect(facts.hostTemplates == .surveyed(fingers: 2, unusable: []))
        let check = Self.check(facts)
        #expect(check.verdict == .ok)
        #expect(check.seen == "All 2 fingers of the image sensor's store in template format 4, which this fpmod's matcher reads.")
        #expect(check.fix == nil)
    }

    @Test func aFormatOneTemplateIsAProblemNamingTheFingerAndTheFix() throws {
        let folder = ScratchFolder(prefix: "diagnostics-format")
        defer { folder.remove() }
        try Self.makeStore(folder, kind: "image-sensor") { store in
            try store.addUser(name: "alice")
            try store.addUser(name: "bob")
            try store.addFinger(user: "alice", label: "right-index", slot: 0, template: Self.currentTemplate, quality: 60)
            try store.addFinger(user: "bob", label: "left-thumb", slot: 3, template: Self.olderTemplate, quality: 40)
            try store.addFinger(user: "bob", label: "pinky's", slot: 4, template: Self.olderTemplate, quality: 40, duress: true)
        }
        let facts = Self.facts(folder)
        #expect(facts.openError == nil)
        #expect(facts.hostTemplates == .surveyed(fingers: 3, unusable: [
            UnusableTemplate(user: "bob", label: "left-thumb", slot: 3, isDuress: false, reason: .olderFormat(1)),
            UnusableTemplate(user: "bob", label: "pinky's", slot: 4, isDuress: true, reason: .olderFormat(1)),
        ]))
        let check = Self.check(facts)
        #expect(check.verdict == .problem)
        #expect(check.seen.hasPrefix("2 of 3 fingers cannot be used by this fpmod's matcher: "
                                     + "\"bob\"'s \"left-thumb\" (slot 3, template format 1, made by fpmod's first matcher, libfprint's NBIS); "
                                     + "\"bob\"'s \"pinky's\" (slot 4, template format 1"))
        #expect(!check.seen.contains("alice"), "alice's finger is usable")
        #expect(check.fix == "On the image sensor, delete each and enroll it again (delete first: enrolling is refused until then): "
                + "`fpmod delete bob --finger left-thumb`, then `fpmod enroll bob --finger left-thumb`; "
                + "`fpmod delete bob --finger 'pinky'\\''s'`, then `fpmod enroll bob --finger 'pinky'\\''s' --duress`.")
        var doctor = DoctorFacts()
        doctor.store = facts
        #expect(DoctorChecks.exitStatus(DoctorChecks.evaluate(doctor)) == 1)
    }

    @Test func aModulesStoreIsNotLookedAt() throws {
        let folder = ScratchFolder(prefix: "diagnostics-format")
        defer { folder.remove() }
        // Even bytes that would read as a format-1 host template: a module's templates are its own.
        try Self.makeStore(folder, kind: "module") { store in
            try store.setModuleIdentity(ModuleIdentity(family: "r30x", address: 0xFFFF_FFFF, password: 0, capacity: 200))
            try store.addUser(name: "alice")
            try store.addFinger(user: "alice", label: "right-index", slot: 0, template: Self.olderTemplate, quality: 90)
        }
        let facts = Self.facts(folder)
        #expect(facts.hostTemplates == .notSurveyed(reason: "a UART module's store: its templates are the module's own."))
        let check = Self.check(facts)
        #expect(check.verdict == .skipped)
        #expect(check.fix == nil)
    }

    @Test func anUnmarkedPairedStoreIsAModulesToo() throws {
        let folder = ScratchFolder(prefix: "diagnostics-format")
        defer { folder.remove() }
        try Self.makeStore(folder, kind: nil) { store in
            try store.setModuleIdentity(ModuleIdentity(family: "as608", address: 0xFFFF_FFFF, password: 0, capacity: 300))
            try store.addUser(name: "alice")
            try store.addFinger(user: "alice", label: "right-index", slot: 0, template: [0x03, 0x01, 0x5A], quality: 90)
        }
        #expect(Self.check(Self.facts(folder)).verdict == .skipped)
    }

    /// Names the store holds are shown quoted and escaped, in the finding and in the commands:
    /// no control character reaches the terminal.
    @Test func controlCharactersInNamesAreEscaped() {
        var facts = StoreFacts(databasePath: "/tmp/store.db", keyPath: "/tmp/store.key")
        facts.database = FileNode(path: "/tmp/store.db", mode: 0o600, owner: "alice", group: "alice", readWritable: true)
        facts.hostTemplates = .surveyed(fingers: 1, unusable: [
            UnusableTemplate(user: "eve\u{1B}[2J", label: "right\u{202E}index", slot: 9, isDuress: false, reason: .notAHostTemplate),
        ])
        let check = Self.check(facts)
        #expect(check.verdict == .problem)
        let text = check.seen + (check.fix ?? "")
        #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" })
        #expect(check.seen.contains(#""eve\u{1B}[2J"'s "right\u{202E}index" (slot 9, not an image sensor's template"#))
        #expect(check.fix?.contains(#"`fpmod delete 'eve\e[2J' --finger 'right\u{202E}index'`"#) == true)
    }
}
