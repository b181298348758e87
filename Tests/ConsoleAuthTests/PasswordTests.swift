import ConsoleAuth
import Testing

struct PasswordTests {
    @Test func aHashIsArgon2idAndVerifiesOnlyItsPassword() throws {
        let hash = try Passwords.hash("correct horse battery")
        #expect(hash.hasPrefix("$argon2id$"), "\(hash)")
        #expect(Passwords.verify("correct horse battery", hash: hash))
        #expect(!Passwords.verify("correct horse batterY", hash: hash))
        #expect(!Passwords.verify("correct horse battery", hash: "not a hash"))
        #expect(try Passwords.hash("correct horse battery") != hash, "a fresh salt each time")
    }

    @Test func theRuleCountsCharactersBoundsBytesAndRefusesTheName() throws {
        #expect(throws: PasswordError.tooShort(characters: 9)) { try Passwords.check("123456789", account: "alice") }
        #expect(throws: PasswordError.tooShort(characters: 9), "characters, not bytes") { try Passwords.check("ééééééééé", account: "alice") }
        #expect(throws: PasswordError.tooLong(bytes: 129)) { try Passwords.check(String(repeating: "a", count: 129), account: "alice") }
        #expect(throws: PasswordError.sameAsName) { try Passwords.check("alice.smith", account: "alice.smith") }
        try Passwords.check("1234567890", account: "alice")
        try Passwords.check(String(repeating: "a", count: 128), account: "alice")
        #expect(PasswordError.tooShort(characters: 3).description.contains("choose a longer one"))
    }
}
