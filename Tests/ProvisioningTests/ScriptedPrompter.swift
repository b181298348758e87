import Administration
import UserPrompts

/// A front end that answers from a script, as a test or a console's saved form would: each
/// answer by the question's key, held to the question's check like any well-behaved prompter
/// (`checking: false` plays one that is not, to show the guide checks anyway).
final class ScriptedPrompter: Prompter {
    private let answers: [String: String]
    private let checking: Bool
    private(set) var asked: [String] = []
    private(set) var questions: [Question] = []
    private(set) var fingerSteps: [EnrollProgress] = []

    init(_ answers: [String: String] = [:], checking: Bool = true) {
        self.answers = answers
        self.checking = checking
    }

    func ask(_ question: Question) throws -> String? {
        asked.append(question.key)
        questions.append(question)
        // No scripted answer: the default, or no secret (setup then makes one up).
        guard let answer = answers[question.key] else { return question.isSecret ? nil : question.defaultAnswer }
        if checking { try question.check(answer) }
        return answer
    }

    func fingerStep(_ step: EnrollProgress) {
        fingerSteps.append(step)
    }
}

/// What the guide narrated, one block per line of the array.
final class Narration {
    private(set) var lines: [String] = []
    var text: String { lines.joined(separator: "\n") }
    func say(_ line: String) { lines.append(line) }
}
