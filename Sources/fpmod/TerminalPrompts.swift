import Administration
import ArgumentParsing
import Foundation
import Posix
import PrintableText
import UserPrompts

/// fpmod's `Prompter` on a terminal: questions and finger steps on stderr, answers from stdin,
/// secrets read with the echo off and never written back.
final class TerminalPrompts: Prompter {
    /// Where answers come from.
    enum Input: Equatable {
        /// `setup --defaults`: nothing is read; each question shows the default it took.
        case defaults
        /// Typed at a terminal: a refused answer is asked again, up to `attempts` times.
        case terminal
        /// stdin is not a TTY: one answer per line, an empty line or the end of input taking the
        /// default — so `printf 'y\nalice\n' | fpmod setup` scripts the guide. Each answer is
        /// taken once: a script never has its later answers read as the wrong ones.
        case piped
    }

    /// How fpmod talks while it asks. The setup guide narrates (`say`, stdout, indented) and
    /// writes piped answers back, so its transcript reads as a dialogue; a command asks plainly
    /// on stderr, and a secret piped to it is one line read once (`echo "$PIN" | fpmod pin bob`).
    enum Voice {
        case guide(say: (String) -> Void)
        case command
    }

    /// Typed attempts before giving up, so a script stuck on a terminal still ends.
    static let attempts = 3

    private let input: Input
    private let voice: Voice
    private var inputEnded = false

    init(_ voice: Voice, acceptDefaults: Bool = false) {
        self.voice = voice
        input = acceptDefaults ? .defaults : (HiddenLine.isTerminal(.standardInput) ? .terminal : .piped)
    }

    func ask(_ question: Question) throws -> String? {
        switch question.kind {
        case .text, .choice: return try text(question)
        case .confirm: return confirm(question)
        case .secret(let secret): return try isGuide ? guideSecret(question, secret) : commandSecret(question, secret)
        }
    }

    func fingerStep(_ step: EnrollProgress) {
        // A step's reason or advice may come from the service: shown, never acted on.
        StandardStreams.writeError((isGuide ? "    " : "") + Printable.escaped(step.description) + "\n")
    }

    // MARK: Kinds of question

    /// Asks until the check accepts: `attempts` times at a terminal, once otherwise (the last
    /// refusal is thrown as it is, so its exit code is the check's).
    private func text(_ question: Question) throws -> String {
        let attempts = input == .terminal ? Self.attempts : 1
        for attempt in 1...attempts {
            let answer = line(question.prompt, default: question.defaultAnswer)
            do {
                try question.check(answer)
                return answer
            } catch {
                guard attempt < attempts else { throw error }
                notice("Not accepted: \(ErrorReport.message(for: error)) Once more.")
            }
        }
        preconditionFailure("the last attempt returns or throws")
    }

    /// The guide asks for y or n (three times at most, then the default); a command asks once
    /// and reads anything but y as no, and without a terminal asks nobody (nil: the command
    /// line decides).
    private func confirm(_ question: Question) -> String? {
        let yes = question.defaultAnswer == "yes"
        guard isGuide else {
            guard input == .terminal else { return nil }
            StandardStreams.writeError(question.prompt + (yes ? " (Y/n): " : " (y/N): "))
            guard let answer = readAnswer(echo: true), !answer.isEmpty else { return question.defaultAnswer }
            return answer.lowercased().hasPrefix("y") ? "yes" : "no"
        }
        for _ in 0..<Self.attempts {
            let answer = line(question.prompt + (yes ? " (Y/n)" : " (y/N)"), default: question.defaultAnswer).lowercased()
            if answer.hasPrefix("y") { return "yes" }
            if answer.hasPrefix("n") { return "no" }
            StandardStreams.writeError("Please answer yes or no.\n")
        }
        return question.defaultAnswer
    }

    /// The guide's secret: asked (twice when new) in every mode, a refusal or a mismatch asking
    /// again; left empty — or refused `attempts` times — it is none, and the guide falls back.
    private func guideSecret(_ question: Question, _ secret: Question.Secret) throws -> String? {
        var answered = false
        for _ in 0..<Self.attempts {
            guard let first = hidden(question.prompt) else { break }
            answered = true
            do {
                try question.check(first)
            } catch {
                notice("Not accepted: \(ErrorReport.message(for: error)); once more.")
                continue
            }
            guard !secret.isNew || hidden("The same \(secret.what) again") == first else {
                notice("The two \(secret.what)s differ; once more.")
                continue
            }
            return first
        }
        guard secret.mayBeEmpty else { throw answered ? PromptError.gaveUp(attempts: Self.attempts) : PromptError.noAnswer }
        return nil
    }

    /// A command's secret: piped, one line; typed, hidden, and when new typed twice, a refusal
    /// or a mismatch asking again up to `attempts` times.
    private func commandSecret(_ question: Question, _ secret: Question.Secret) throws -> String? {
        let prompt = input == .terminal ? question.prompt + ": " : ""
        guard input == .terminal, secret.isNew else {
            guard let line = readAnswer(echo: false, prompt: prompt) else { throw PromptError.noAnswer }
            guard !line.isEmpty else {
                if secret.mayBeEmpty { return nil }
                throw PromptError.empty
            }
            try question.check(line)
            return line
        }
        for _ in 0..<Self.attempts {
            guard let first = readAnswer(echo: false, prompt: prompt) else { throw PromptError.noAnswer }
            if first.isEmpty, secret.mayBeEmpty { return nil }
            var problem = first.isEmpty ? "it is empty" : nil
            if problem == nil {
                do { try question.check(first) } catch { problem = ErrorReport.message(for: error) }
            }
            if let problem {
                StandardStreams.writeError("Not accepted: \(problem). Once more.\n")
                continue
            }
            guard let second = readAnswer(echo: false, prompt: "The same \(secret.what) again: ") else { throw PromptError.noAnswer }
            if first == second { return first }
            StandardStreams.writeError("The two entries differ. Once more.\n")
        }
        throw PromptError.gaveUp(attempts: Self.attempts)
    }

    // MARK: Reading

    private var isGuide: Bool {
        if case .guide = voice { return true }
        return false
    }

    /// A line of the guide's narration (stdout), or a command's note (stderr).
    private func notice(_ text: String) {
        switch voice {
        case .guide(let say): say("  " + text)
        case .command: StandardStreams.writeError(text + "\n")
        }
    }

    /// A free-text answer, or `defaultValue`; piped answers are written back after the question.
    private func line(_ question: String, default defaultValue: String) -> String {
        StandardStreams.writeError(defaultValue.isEmpty ? "\(question): " : "\(question) [\(defaultValue)]: ")
        guard let line = readAnswer(echo: true) else {
            StandardStreams.writeError("\(defaultValue)\n")
            return defaultValue
        }
        if input == .piped { StandardStreams.writeError(line + "\n") }
        let answer = line.trimmingCharacters(in: .whitespaces)
        return answer.isEmpty ? defaultValue : answer
    }

    /// The guide's hidden answer; nil when there is none to read (--defaults, end of input, or
    /// an empty line). Piped, a dot stands for each character, so the transcript shows that an
    /// answer was read without showing it.
    private func hidden(_ question: String) -> String? {
        guard input != .defaults else {
            StandardStreams.writeError("\(question): (default)\n")
            return nil
        }
        // On a terminal the question is written once the echo is off (see HiddenLine.read).
        if input == .piped { StandardStreams.writeError("\(question): ") }
        let line = readAnswer(echo: false, prompt: "\(question): ")
        StandardStreams.writeError(input == .piped ? (line.map { String(repeating: "•", count: $0.count) } ?? "") + "\n" : "\n")
        guard let line, !line.isEmpty else { return nil }
        return line
    }

    /// One line of stdin (hidden at a terminal unless `echo`), or nil with --defaults or once
    /// input has ended.
    private func readAnswer(echo: Bool, prompt: String = "") -> String? {
        guard input != .defaults, !inputEnded else { return nil }
        let line = input == .terminal && !echo ? HiddenLine.read(prompt: prompt) : readLine(strippingNewline: true)
        if line == nil { inputEnded = true }
        return line
    }
}
