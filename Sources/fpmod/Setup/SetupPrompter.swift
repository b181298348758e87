import ArgumentParsing
import Foundation
import Glibc
import Posix

/// Asks the setup guide's questions. Every question has a default that Enter accepts.
/// - `.acceptDefaults` (`--defaults`): nothing is read; each question shows the default it took.
/// - `.terminal`: questions on stderr, answers typed; secrets read with echo off.
/// - `.piped` (stdin is not a TTY): one answer per line, an empty line or the end of input
///   taking the default — so `printf 'y\nalice\n' | fpmod setup` scripts the guide.
final class SetupPrompter {
    enum Mode: Equatable { case acceptDefaults, terminal, piped }

    let mode: Mode
    private var inputEnded = false

    init(acceptDefaults: Bool) {
        mode = acceptDefaults ? .acceptDefaults : (isatty(STDIN_FILENO) != 0 ? .terminal : .piped)
    }

    /// A free-text answer, or `defaultValue`.
    func ask(_ question: String, default defaultValue: String) -> String {
        StandardStreams.writeError(defaultValue.isEmpty ? "\(question): " : "\(question) [\(defaultValue)]: ")
        guard let line = readAnswer(echo: true) else {
            StandardStreams.writeError("\(defaultValue)\n")
            return defaultValue
        }
        if mode == .piped { StandardStreams.writeError(line + "\n") }
        let answer = line.trimmingCharacters(in: .whitespaces)
        return answer.isEmpty ? defaultValue : answer
    }

    /// Yes or no; anything not starting with y/n asks again (at most three times, then the default).
    func confirm(_ question: String, default defaultValue: Bool) -> Bool {
        for _ in 0..<3 {
            let answer = ask(question + (defaultValue ? " (Y/n)" : " (y/N)"), default: defaultValue ? "yes" : "no").lowercased()
            if answer.hasPrefix("y") { return true }
            if answer.hasPrefix("n") { return false }
            StandardStreams.writeError("Please answer yes or no.\n")
        }
        return defaultValue
    }

    /// A secret, hidden while typed on a terminal; nil when there is none to read (--defaults,
    /// end of input, or an empty line), so the caller applies its own default.
    func secret(_ question: String) -> String? {
        guard mode != .acceptDefaults else {
            StandardStreams.writeError("\(question): (default)\n")
            return nil
        }
        // On a terminal the question is written once the echo is off (see HiddenLine.read).
        if mode == .piped { StandardStreams.writeError("\(question): ") }
        let line = readAnswer(echo: false, prompt: "\(question): ")
        StandardStreams.writeError(mode == .piped ? (line.map { String(repeating: "•", count: $0.count) } ?? "") + "\n" : "\n")
        guard let line, !line.isEmpty else { return nil }
        return line
    }

    /// One line of stdin, or nil with --defaults or once input has ended.
    private func readAnswer(echo: Bool, prompt: String = "") -> String? {
        guard mode != .acceptDefaults, !inputEnded else { return nil }
        let line = mode == .terminal && !echo ? HiddenLine.read(prompt: prompt) : readLine(strippingNewline: true)
        if line == nil { inputEnded = true }
        return line
    }
}
