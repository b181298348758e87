import Foundation
import Testing
@testable import TemplateStore

/// User names, finger labels and display names can only be made valid, and a refusal says what
/// is allowed, length included, without ever echoing a control character.
@Suite struct NameRulesTests {
    private func refusal(_ body: () throws -> Void) -> NameError? {
        do {
            try body()
            return nil
        } catch {
            return error as? NameError
        }
    }

    @Test func everyNameTheOldRuleAcceptedIsStillAUserName() throws {
        for name in ["alice", "Bob.Smith", "x_y-z", "carol@home", "A1", String(repeating: "a", count: 64)] {
            let checked = try UserName(validating: name)
            #expect(checked.text == name)
        }
    }

    @Test(arguments: [
        ("Zoë", "\"ë\" is not allowed"),
        ("a b", "a space is not allowed"),
        ("", "an empty user name is not allowed"),
        ("line\nbreak", "a line break is not allowed"),
        ("esc\u{1B}[31m", "the escape character is not allowed"),
        (String(repeating: "a", count: 70), "it is too long (70 characters)"),
    ])
    func refusedUserNamesSayWhyAndWhatIsAllowed(name: String, problem: String) throws {
        let error = try #require(refusal { _ = try UserName(validating: name) })
        #expect(error.field == .userName)
        #expect(error.description.contains(problem), "\(error)")
        #expect(error.description.contains("1 to 64 characters"))
        #expect(error.description.contains("ASCII letters"))
        #expect(!error.description.contains("\u{1B}") && !error.description.contains("\n"))
    }

    @Test func labelsRefuseSpacesAndControlsButKeepWhatWasValid() throws {
        let plain = try FingerLabel(validating: "left-pinky"), accented = try FingerLabel(validating: "pouce-gauche-é")
        #expect(plain.text == "left-pinky" && accented.text == "pouce-gauche-é")
        let error = try #require(refusal { _ = try FingerLabel(validating: "left pinky!") })
        #expect(error.description.hasPrefix("\"left pinky!\" cannot be a finger label: a space is not allowed."))
        #expect(error.description.contains("1 to 64 characters"))
        #expect(refusal { _ = try FingerLabel(validating: "x\u{202E}y") } != nil)
        #expect(refusal { _ = try FingerLabel(validating: "") } != nil)
    }

    @Test func aLabelTypedWithACombiningAccentIsTheSameLabel() throws {
        let label = try FingerLabel(validating: "e\u{301}")
        #expect(label.text == "\u{E9}")
    }

    @Test func displayNamesTakeSpacesAndAccentsButNoControlOrDirectionCharacters() throws {
        let typed = try DisplayName(validating: "Zoë Martin")
        let decomposed = try DisplayName(validating: "Zoe\u{308} Martin")
        #expect(typed.text == "Zoë Martin" && decomposed == DisplayName("Zo\u{EB} Martin"))
        for bad in ["\u{1B}[31mred", "two\nlines", "tab\there", "del\u{7F}", "c1\u{85}", "abc\u{202E}cba", "iso\u{2066}late"] {
            let error = try #require(refusal { _ = try DisplayName(validating: bad) }, "\(bad.debugDescription) was accepted")
            #expect(error.field == .displayName)
            #expect(!error.description.unicodeScalars.contains { NameRules.isUnsafe($0) }, "\(error)")
        }
        let long = try #require(refusal { _ = try DisplayName(validating: String(repeating: "ü", count: 65)) })
        #expect(long.description.contains("65 characters") && long.description.contains("1 to 64 characters"))
    }

    @Test func aLongRefusedNameIsShortenedInTheMessage() throws {
        let error = try #require(refusal { _ = try UserName(validating: String(repeating: "b", count: 5000)) })
        #expect(error.description.count < 500)
    }

    @Test func aBackupWithARefusedNameChangesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        try store.addUser(name: "alice")
        let contents = BackupContents(createdAt: Date(), moduleFamily: nil, users: [
            BackupUser(name: "bob", displayName: "\u{1B}[31mBob", role: .user, fingerprintUnlock: true, pinHash: nil,
                       createdAt: Date(), fingers: []),
        ])
        #expect(throws: StoreError.self) { try store.replaceAll(with: contents) }
        let names = try store.users().map(\.name)
        #expect(names == ["alice"])
    }
}
