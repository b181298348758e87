import Administration
import DoorLock
import Foundation
import Provisioning
import TemplateStore
import Testing
import TestSupport
import UserPrompts

/// The first run as a library, on a simulated module and real files in a scratch folder: the
/// questions it asks, the refusals before anything is written, the config it writes, and a
/// scripted front end taking it from nothing to a paired module with an admin.
@Suite struct SetupGuideTests {
    /// Settings as `fpmod --sim --config DIR/config.json setup` makes them, in `folder`.
    static func simulated(_ folder: ScratchFolder) -> SetupSettings {
        var settings = SetupSettings(storeDatabase: folder.file("store.db"), storeKey: folder.file("store.key"),
                                     configPath: folder.file("config.json"))
        settings.simulator = .init(profile: "r307", statePath: folder.file("sim-r307.state"))
        settings.deviceTreeModel = folder.file("no-device-tree")
        settings.deviceDirectory = folder.path
        settings.commandPrefix = { "fpmod --sim --config " + $0 }
        return settings
    }

    static func nothingWritten(_ folder: ScratchFolder, sourceLocation: SourceLocation = #_sourceLocation) {
        for file in ["store.db", "store.key", "config.json"] {
            #expect(!FileManager.default.fileExists(atPath: folder.file(file)), "\(file) was created", sourceLocation: sourceLocation)
        }
    }

    @Test func aFreshMachineIsAskedForTheAdminThePINTheBoardTheFileAndThePairing() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let questions = try SetupGuide.questions(Self.simulated(folder))
        #expect(questions.map(\.key) == ["admin.name", "admin.finger", "admin.pin", "board", "config.path", "pair"])
        #expect(questions.map(\.defaultAnswer) == ["admin", "right-index", "", "usb-serial", folder.file("config.json"), "yes"])
        #expect(questions[2].kind == .secret(.init(what: "PIN", isNew: true, mayBeEmpty: true)))
        #expect(questions[2].prompt.contains(PINRule.summary), "the rule is in the question, not only in a refusal")
        #expect(questions[3].kind == .choice(BoardDetection.builtInNames, allowsOther: true))
        #expect(questions[5].kind == .confirm)
        Self.nothingWritten(folder)
    }

    @Test func withoutAPortTheQuestionsStartWithTheSerialDevicesHere() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let devices = folder.file("dev")
        try FileManager.default.createDirectory(atPath: devices, withIntermediateDirectories: true)
        for name in ["ttyUSB10", "ttyUSB2", "ttyAMA0", "tty0", "ttyACM0"] {
            _ = FileManager.default.createFile(atPath: devices + "/" + name, contents: nil)
        }
        // The header UART's alias and its target are one port.
        try FileManager.default.createSymbolicLink(atPath: devices + "/serial0", withDestinationPath: "ttyAMA0")
        try Data("Raspberry Pi 4 Model B Rev 1.4\0".utf8).write(to: URL(fileURLWithPath: folder.file("model")))
        var settings = Self.simulated(folder)
        settings.simulator = nil
        settings.deviceDirectory = devices
        settings.deviceTreeModel = folder.file("model")
        settings.pin = "4826"
        let questions = try SetupGuide.questions(settings)
        #expect(questions.map(\.key) == ["port", "admin.name", "admin.finger", "board", "config.path", "pair"], "FPMOD_PIN: no PIN question")
        let ports = ["serial0", "ttyACM0", "ttyUSB2", "ttyUSB10"].map { devices + "/" + $0 }
        #expect(questions[0].kind == .choice(ports, allowsOther: true))
        #expect(questions[0].defaultAnswer == devices + "/serial0")
        #expect(questions[3].defaultAnswer == "rpi4", "the board detected from the device tree")
    }

    @Test func badAnswersAreRefusedByTheQuestionsOwnChecks() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let questions = SetupQuestions(settings: Self.simulated(folder), store: nil)
        #expect(expectThrows(NameError.self) { try questions.administratorName().check("Zoë") } != nil)
        #expect(expectThrows(NameError.self) { try questions.administratorFinger(of: "admin").check("left pinky!") } != nil)
        let board = expectThrows(SetupError.self) { try questions.board(default: "rpi4").check("no-such-board") }
        #expect(board?.kind == .config)
        #expect(board?.description.contains("Pick another board preset") == true)
        try questions.board(default: "rpi4").check("rpi5")
        let directory = expectThrows(SetupError.self) { try questions.configPath().check(folder.path) }
        #expect(directory?.kind == .usage)
        #expect(expectThrows(SetupError.self) { try questions.configPath().check("") }?.kind == .usage)
        #expect(expectThrows(SecretRule.Refusal.self) { try questions.pin(for: "admin").check("1234") } != nil)
        try questions.pin(for: "admin").check("4826")
        Self.nothingWritten(folder)
    }

    @Test func aRefusedAnswerStopsTheGuideBeforeAnythingIsWritten() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let settings = Self.simulated(folder)
        for answers in [["admin.name": "Zoë"], ["admin.finger": "left pinky!"], ["board": "no-such-board"], ["admin.pin": "1111"],
                        ["config.path": folder.path]] {
            // A front end that forgets the check gets no further: the guide holds the answer to it too.
            for checking in [true, false] {
                let prompter = ScriptedPrompter(answers, checking: checking)
                #expect(throws: (any Error).self, "\(answers)") { try SetupGuide.run(settings, prompter: prompter, say: { _ in }) }
                #expect(prompter.fingerSteps.isEmpty, "nobody was asked for a finger")
                Self.nothingWritten(folder)
            }
        }
        var badPIN = settings
        badPIN.pin = "7"
        let refusal = expectThrows(SetupError.self) { try SetupGuide.run(badPIN, prompter: ScriptedPrompter(), say: { _ in }) }
        #expect(refusal?.kind == .usage)
        #expect(refusal?.description.contains("FPMOD_PIN is not accepted") == true)
        #expect(refusal?.description.contains("7") == false, "the refused PIN is not repeated")
        Self.nothingWritten(folder)
    }

    @Test func aScriptedFrontEndSetsUpASimulatedModuleFromNothing() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let settings = Self.simulated(folder)
        let prompter = ScriptedPrompter(["admin.name": "carol", "admin.finger": "left-thumb", "admin.pin": "4826", "board": "rpi4"])
        let narration = Narration()
        let outcome = try SetupGuide.run(settings, prompter: prompter, say: narration.say)

        #expect(prompter.asked == ["admin.name", "admin.finger", "admin.pin", "board", "config.path", "pair"])
        #expect(outcome.administrator == "carol")
        #expect(outcome.configPath == folder.file("config.json"))
        #expect(outcome.configWritten)
        #expect(outcome.paired?.family == "r30x")
        // The finger steps reached the front end, not a terminal.
        #expect(prompter.fingerSteps.contains(.placeFinger(capture: 1, of: 2)))
        #expect(prompter.fingerSteps.contains(.liftFinger))
        #expect(narration.text.contains("Step 7 of 7"))
        #expect(!narration.text.contains("4826"), "the PIN is never narrated")

        let store = try TemplateStore(readingOnly: settings.storeDatabase, keyPath: settings.storeKey)
        let carol = try #require(try store.user(named: "carol"))
        #expect(carol.role == .admin)
        #expect(carol.hasPIN)
        #expect(try store.fingers(of: "carol").map(\.label) == ["left-thumb"])
        #expect(try store.moduleIdentity() != nil)

        // The file written from the answers is one the service loads.
        let config = try LockConfig.load(path: outcome.configPath)
        #expect(config.board == "rpi4")
        #expect(config.storeDatabase == settings.storeDatabase)
        #expect(config.storeKey == settings.storeKey)
        #expect(config.serialPort == nil, "a simulator's pseudo-terminal changes every run")
        #expect(config.family == .r30x)
    }

    @Test func runAgainItKeepsThePairingTheAdminAndTheFileUnlessAsked() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let settings = Self.simulated(folder)
        let first = Narration()
        try SetupGuide.run(settings, prompter: ScriptedPrompter(), say: first.say)
        // No PIN typed: one is made up, and shown once with the way to change it.
        #expect(first.text.range(of: #"admin's PIN is [0-9]{6} .*fpmod --sim --config \S+ pin admin"#, options: .regularExpression) != nil,
                "\(first.text)")
        let written = try String(contentsOfFile: settings.configPath, encoding: .utf8)

        let prompter = ScriptedPrompter()
        let again = Narration()
        let outcome = try SetupGuide.run(settings, prompter: prompter, say: again.say)
        #expect(prompter.asked == ["admin.another", "board", "config.path", "config.replace"])
        #expect(again.text.contains("Administrators already enrolled: admin."))
        #expect(again.text.contains("Already paired"))
        #expect(again.text.contains("Kept the existing"))
        #expect(!outcome.configWritten)
        #expect(outcome.paired == nil && outcome.administrator == nil)
        #expect(try String(contentsOfFile: settings.configPath, encoding: .utf8) == written)

        // The finger admin has is refused before anyone is asked to touch the sensor.
        let sameFinger = ScriptedPrompter(["admin.another": "yes", "admin.name": "admin", "admin.finger": "right-index"])
        let refusal = expectThrows(AdministrationError.self) { try SetupGuide.run(settings, prompter: sameFinger, say: { _ in }) }
        guard case .fingerAlreadyEnrolled(let user, let label, _) = refusal else {
            Issue.record("expected fingerAlreadyEnrolled, got \(String(describing: refusal))")
            return
        }
        #expect(user == "admin" && label == "right-index")
        #expect(sameFinger.fingerSteps.isEmpty)
    }

    @Test func theImageSensorSimulatorIsRefusedWithTheWayToEnrollOnIt() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        var settings = Self.simulated(folder)
        settings.simulator?.profile = "fpc1020"
        let refusal = expectThrows(SetupError.self) { try SetupGuide.run(settings, prompter: ScriptedPrompter(), say: { _ in }) }
        #expect(refusal?.kind == .usage)
        #expect(refusal?.description.contains("enroll NAME --admin") == true)
        Self.nothingWritten(folder)
    }
}
