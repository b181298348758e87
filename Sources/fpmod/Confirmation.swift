import ArgumentParsing
import UserPrompts

/// A "yes" typed on the terminal before something that cannot be undone, unless `--yes` was
/// given. Without a terminal (a script) nothing is asked: the command line is the decision.
enum Confirmation {
    /// Asks "`question`? This cannot be undone. (y/N)".
    static func ask(_ invocation: Invocation, _ question: String) throws {
        guard !invocation.parsed.flag("yes") else { return }
        let answer = try invocation.prompter.confirm(.confirmation(key: "confirm", prompt: question + "? This cannot be undone.",
                                                                   default: false))
        if answer == false {
            throw CommandFailure(.usage, "Nothing was deleted. Answer y to confirm, or pass --yes.")
        }
    }
}
