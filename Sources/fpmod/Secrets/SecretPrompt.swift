import ArgumentParsing
import Posix

/// Reads passphrases and PINs the same way in every command: from `--option` (or its environment
/// variable) for scripts; typed on a terminal with the echo off; else one line of piped stdin.
/// A new secret follows its rule (stated in the prompt) and, typed, is asked twice.
enum SecretPrompt {
    /// Typed attempts before giving up, so a script stuck on a terminal still ends.
    static let attempts = 3

    /// A secret that already exists (a backup's passphrase): no rule, asked once.
    static func existing(_ invocation: Invocation, option: String, what: String) throws -> String {
        if let value = invocation.parsed.string(option) {
            guard !value.isEmpty else { throw empty(option, what) }
            return value
        }
        let prompt = HiddenLine.isTerminal(.standardInput) ? "\(capitalized(what)): " : ""
        guard let line = HiddenLine.read(prompt: prompt) else { throw missing(option, what) }
        guard !line.isEmpty else { throw empty(option, what) }
        return line
    }

    /// A secret being chosen (a new backup passphrase, a PIN): it must pass `rule`; on a terminal
    /// it is typed twice, and a mismatch or a refusal asks again.
    static func new(_ invocation: Invocation, option: String, what: String, for owner: String? = nil,
                    rule: SecretRule) throws -> String {
        if let value = invocation.parsed.string(option) {
            guard !value.isEmpty else { throw empty(option, what) }
            try check(value, rule, what)
            return value
        }
        guard HiddenLine.isTerminal(.standardInput) else {
            // Piped: one line, for scripts (`echo "$PASSPHRASE" | fpmod backup FILE`).
            guard let line = HiddenLine.read() else { throw missing(option, what) }
            guard !line.isEmpty else { throw empty(option, what) }
            try check(line, rule, what)
            return line
        }
        for _ in 0..<attempts {
            let prompt = "New \(what)\(owner.map { " for \($0)" } ?? "") (\(rule.summary)): "
            guard let first = HiddenLine.read(prompt: prompt) else { throw missing(option, what) }
            if let problem = first.isEmpty ? "it is empty" : rule.problem(first) {
                StandardStreams.writeError("Not accepted: \(problem). Once more.\n")
                continue
            }
            guard let second = HiddenLine.read(prompt: "The same \(what) again: ") else { throw missing(option, what) }
            if first == second { return first }
            StandardStreams.writeError("The two entries differ. Once more.\n")
        }
        throw CommandFailure(.usage, "No \(what) was set after \(attempts) attempts; nothing was changed. Run the command again.")
    }

    private static func check(_ secret: String, _ rule: SecretRule, _ what: String) throws {
        if let problem = rule.problem(secret) {
            throw CommandFailure(.usage, "This \(what) is not accepted: \(problem); nothing was changed. Choose one with \(rule.summary).")
        }
    }

    private static func missing(_ option: String, _ what: String) -> CommandFailure {
        CommandFailure(.usage, "No \(what) given: type it when asked, pass --\(option), set its environment variable, or write it on stdin.")
    }

    private static func empty(_ option: String, _ what: String) -> CommandFailure {
        CommandFailure(.usage, "The \(what) is empty: type it when asked, or pass it with --\(option) or on stdin.")
    }

    private static func capitalized(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
