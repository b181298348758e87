import Administration
import Testing
import UserPrompts

/// The questions' own rules, whichever front end asks them.
@Suite struct QuestionTests {
    /// A front end with one fixed reply (nil: nobody there), which checks nothing itself.
    final class Replying: Prompter {
        let reply: String?
        init(_ reply: String?) { self.reply = reply }
        func ask(_ question: Question) throws -> String? { reply }
        func fingerStep(_ step: EnrollProgress) {}
    }

    @Test func aNewSecretIsHeldToItsRuleWithoutRepeatingIt() throws {
        let pin = Question.newSecret(key: "pin", what: "PIN", prompt: "New PIN", rule: .pin)
        #expect(pin.kind == .secret(.init(what: "PIN", isNew: true)))
        for refused in ["9876", "5555", "3434", "7", "98ab"] {
            do {
                try pin.check(refused)
                Issue.record("\(refused) was accepted")
            } catch let refusal as SecretRule.Refusal {
                #expect(!refusal.problem.contains(refused), "the refusal repeats the PIN: \(refusal.problem)")
            }
        }
        try pin.check("4826")
        let passphrase = Question.newSecret(key: "passphrase", what: "backup passphrase", prompt: "New backup passphrase",
                                            rule: .backupPassphrase)
        #expect(throws: SecretRule.Refusal.self) { try passphrase.check("ababababab") }
        #expect(throws: SecretRule.Refusal.self) { try passphrase.check("short") }
        try passphrase.check("correct horse battery")
        #expect(SecretRule.pin.summary == PINRule.summary)
    }

    @Test func anAnswerIsCheckedEvenWhenTheFrontEndForgot() throws {
        let name = Question(key: "name", prompt: "Name", kind: .text, defaultAnswer: "admin") {
            if $0.contains(" ") { throw PromptError.empty }
        }
        #expect(try Replying(nil).answer(name) == "admin", "nobody answered: the default")
        #expect(try Replying("bob").answer(name) == "bob")
        #expect(throws: PromptError.self) { try Replying("two words").answer(name) }
    }

    @Test func aConfirmationIsYesOrNoOrNobody() throws {
        let question = Question.confirmation(key: "pair", prompt: "Pair?", default: true)
        #expect(question.defaultAnswer == "yes")
        #expect(try Replying("yes").confirm(question) == true)
        #expect(try Replying("no").confirm(question) == false)
        #expect(try Replying(nil).confirm(question) == nil)
        #expect(try Replying(nil).answer(question) == "yes")
    }
}
