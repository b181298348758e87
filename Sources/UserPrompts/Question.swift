/// One thing a front end asks a person, as data: the CLI asks it on a terminal, a web console
/// on a page, a kiosk on its screen, a test from a script — and every one of them holds the
/// answer to the same `check`, so a refusal reads the same wherever it was typed.
public struct Question: Sendable {
    public enum Kind: Sendable, Equatable {
        /// Free text: a name, a path.
        case text
        /// One of `options` (shown as the choices); with `allowsOther`, anything else `check`
        /// accepts too (a board preset's file instead of a built-in name).
        case choice([String], allowsOther: Bool)
        /// Hidden while typed, never echoed, shown or logged.
        case secret(Secret)
        /// Yes or no: the answer is "yes" or "no".
        case confirm
    }

    /// What a secret question needs beyond its prompt.
    public struct Secret: Sendable, Equatable {
        /// What it is, in the person's words ("PIN", "backup passphrase"): for the second entry
        /// and for the refusals.
        public var what: String
        /// A secret being chosen, asked twice so a typo does not become the secret; one that
        /// already exists (a backup's passphrase) is asked once.
        public var isNew: Bool
        /// An empty answer is allowed and means "none": the asker has its own fall-back (setup
        /// makes up a PIN). Otherwise an empty secret is refused.
        public var mayBeEmpty: Bool

        public init(what: String, isNew: Bool, mayBeEmpty: Bool = false) {
            self.what = what
            self.isNew = isNew
            self.mayBeEmpty = mayBeEmpty
        }
    }

    /// Stable and unique within one flow ("admin.name", "board"): how a page names its field
    /// and a script its answer, whatever the wording.
    public var key: String
    /// The question itself, without the default or a trailing colon.
    public var prompt: String
    public var kind: Kind
    /// What an empty answer takes: "" for none, "yes"/"no" for a confirmation. Never a secret.
    public var defaultAnswer: String
    /// Throws why `answer` is refused, in words that say what to give instead. Checked before
    /// anything is changed, so a refused answer changes nothing.
    public var check: @Sendable (String) throws -> Void

    public init(key: String, prompt: String, kind: Kind, defaultAnswer: String = "",
                check: @escaping @Sendable (String) throws -> Void = { _ in }) {
        self.key = key
        self.prompt = prompt
        self.kind = kind
        self.defaultAnswer = defaultAnswer
        self.check = check
    }
}

extension Question {
    /// A yes-or-no question.
    public static func confirmation(key: String, prompt: String, default defaultAnswer: Bool) -> Question {
        Question(key: key, prompt: prompt, kind: .confirm, defaultAnswer: defaultAnswer ? "yes" : "no")
    }

    /// A secret being chosen: it must pass `rule`, and is asked twice.
    public static func newSecret(key: String, what: String, prompt: String, rule: SecretRule,
                                 mayBeEmpty: Bool = false) -> Question {
        Question(key: key, prompt: prompt, kind: .secret(Secret(what: what, isNew: true, mayBeEmpty: mayBeEmpty))) {
            if let problem = rule.problem($0) { throw SecretRule.Refusal(problem: problem) }
        }
    }

    /// A secret that already exists (a backup's passphrase): no rule, asked once.
    public static func existingSecret(key: String, what: String, prompt: String) -> Question {
        Question(key: key, prompt: prompt, kind: .secret(Secret(what: what, isNew: false)))
    }

    public var isSecret: Bool {
        if case .secret = kind { return true }
        return false
    }
}
