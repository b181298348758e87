import Administration
import TemplateStore

/// The one way fpmod asks a person anything — a name, a PIN, a passphrase, a yes, a finger on
/// the sensor. Commands and the setup guide say what to ask (`Question`); the front end decides
/// how: the CLI's terminal, a console's page, a kiosk's screen, a test's script. A new front end
/// brings its own implementation and no command or enrollment code changes.
///
/// Not `Sendable`: like a reader, a prompter belongs to the one flow that asks.
public protocol Prompter {
    /// The answer to `question`, one its `check` accepted ("yes" or "no" for a confirmation).
    ///
    /// Nil: there is no answer to be had — nobody is there to ask (a script without a terminal),
    /// or a secret that `mayBeEmpty` was left empty; the caller falls back (the command line
    /// decides, setup makes a PIN up). How often a refused answer is asked again is the front
    /// end's: a person gets another go, a script's answer is taken once. When it stops asking it
    /// throws the refusal (the check's error, or a `PromptError`).
    func ask(_ question: Question) throws -> String?

    /// A step of an enrollment at the sensor (place the finger, lift it, once more…), shown
    /// while the reader waits: the terminal prints it, a kiosk draws it.
    func fingerStep(_ step: EnrollProgress)
}

extension Prompter {
    /// A confirmation's answer as a Bool; nil when nobody was there to answer.
    public func confirm(_ question: Question) throws -> Bool? {
        try ask(question).map { $0 == "yes" }
    }

    /// The answer to a question that has a default (taken when nobody answers), held to the
    /// question's check here as well: whichever front end asked, no unchecked answer reaches
    /// the code that acts on it.
    public func answer(_ question: Question) throws -> String {
        let answer = try ask(question) ?? question.defaultAnswer
        try question.check(answer)
        return answer
    }
}

/// Why a question got no usable answer, apart from the question's own check.
public enum PromptError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input ended before an answer.
    case noAnswer
    /// An empty answer to a question that needs one.
    case empty
    /// The two entries of a new secret differed, and no more are asked for.
    case entriesDiffer
    /// Refused `attempts` times in a row; the front end stopped asking.
    case gaveUp(attempts: Int)

    public var description: String {
        switch self {
        case .noAnswer: "no answer was given"
        case .empty: "the answer is empty"
        case .entriesDiffer: "the two entries differ"
        case let .gaveUp(attempts): "no answer was accepted after \(attempts) attempts"
        }
    }
}

extension FingerprintReader {
    /// Guided enrollment with its touches asked for through `prompter`: whoever asks the
    /// person (terminal, console, kiosk) shows the steps its own way.
    @discardableResult
    public func enroll(user: UserName, displayName: DisplayName? = nil, label: FingerLabel, captures: Int,
                       admin: Bool, duress: Bool = false, prompter: some Prompter) throws -> EnrollResult {
        try enroll(user: user, displayName: displayName, label: label, captures: captures, admin: admin, duress: duress,
                   progress: { prompter.fingerStep($0) })
    }
}
