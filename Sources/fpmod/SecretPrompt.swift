import ArgumentParsing
import UserPrompts

/// Reads passphrases and PINs the same way in every command: from `--option` (or its environment
/// variable) for scripts, else asked through the command's `Prompter` (typed on a terminal with
/// the echo off; else one line of piped stdin). A new secret follows its rule (stated in the
/// prompt) and, typed, is asked twice.
enum SecretPrompt {
    /// A secret that already exists (a backup's passphrase): no rule, asked once.
    static func existing(_ invocation: Invocation, option: String, what: String) throws -> String {
        if let value = invocation.parsed.string(option) {
            guard !value.isEmpty else { throw empty(option, what) }
            return value
        }
        let question = Question.existingSecret(key: option, what: what, prompt: what.prefix(1).uppercased() + what.dropFirst())
        return try asking(question, invocation, option: option, what: what, rule: nil)
    }

    /// A secret being chosen (a new backup passphrase, a PIN): it must pass `rule`; on a terminal
    /// it is typed twice, and a mismatch or a refusal asks again.
    static func new(_ invocation: Invocation, option: String, what: String, for owner: String? = nil,
                    rule: SecretRule) throws -> String {
        if let value = invocation.parsed.string(option) {
            guard !value.isEmpty else { throw empty(option, what) }
            if let problem = rule.problem(value) { throw refused(problem, what, rule) }
            return value
        }
        let question = Question.newSecret(key: option, what: what, prompt: "New \(what)\(owner.map { " for \($0)" } ?? "") (\(rule.summary))",
                                          rule: rule)
        return try asking(question, invocation, option: option, what: what, rule: rule)
    }

    /// The prompter's answer, its refusals in the words that name this command's options.
    private static func asking(_ question: Question, _ invocation: Invocation, option: String, what: String,
                               rule: SecretRule?) throws -> String {
        do {
            guard let secret = try invocation.prompter.ask(question) else { throw missing(option, what) }
            return secret
        } catch PromptError.noAnswer {
            throw missing(option, what)
        } catch PromptError.empty {
            throw empty(option, what)
        } catch PromptError.gaveUp(let attempts) {
            throw CommandFailure(.usage, "No \(what) was set after \(attempts) attempts; nothing was changed. Run the command again.")
        } catch let refusal as SecretRule.Refusal {
            guard let rule else { throw refusal }
            throw refused(refusal.problem, what, rule)
        }
    }

    private static func refused(_ problem: String, _ what: String, _ rule: SecretRule) -> CommandFailure {
        CommandFailure(.usage, "This \(what) is not accepted: \(problem); nothing was changed. Choose one with \(rule.summary).")
    }

    private static func missing(_ option: String, _ what: String) -> CommandFailure {
        CommandFailure(.usage, "No \(what) given: type it when asked, pass --\(option), set its environment variable, or write it on stdin.")
    }

    private static func empty(_ option: String, _ what: String) -> CommandFailure {
        CommandFailure(.usage, "The \(what) is empty: type it when asked, or pass it with --\(option) or on stdin.")
    }
}
