import ArgumentParsing
import Posix

/// A "yes" typed on the terminal before something that cannot be undone, unless `--yes` was
/// given. Without a terminal (a script) nothing is asked: the command line is the decision.
enum Confirmation {
    /// Asks "`question`? This cannot be undone. (y/N)".
    static func ask(_ invocation: Invocation, _ question: String) throws {
        guard !invocation.parsed.flag("yes"), HiddenLine.isTerminal(.standardInput) else { return }
        StandardStreams.writeError(question + "? This cannot be undone. (y/N): ")
        guard let answer = readLine(strippingNewline: true), answer.lowercased().hasPrefix("y") else {
            throw CommandFailure(.usage, "Nothing was deleted. Answer y to confirm, or pass --yes.")
        }
    }
}
