import Administration

/// What a newly chosen secret must satisfy. The rule's text is shown in the prompt, so nobody
/// learns it only from a refusal.
public struct SecretRule: Sendable {
    /// "at least 10 characters, at least 5 of them different", for the prompt and the error.
    public let summary: String
    /// The problem with `secret`, or nil when it passes. Never repeats the secret.
    public let problem: @Sendable (String) -> String?

    public init(summary: String, problem: @escaping @Sendable (String) -> String?) {
        self.summary = summary
        self.problem = problem
    }

    /// A secret refused by its rule; `problem` is the rule's words, without the secret.
    public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        public let problem: String
        public init(problem: String) { self.problem = problem }
        public var description: String { problem }
    }

    /// A backup passphrase guards every template against an offline attacker who has the file,
    /// so it must be long; a repeated or near-repeated string ("aaaaaaaaaa", "ababababab") is not.
    public static let backupPassphrase = SecretRule(summary: "at least 10 characters, at least 5 of them different") { secret in
        if secret.count < 10 { return "the passphrase has \(secret.count) character(s); it needs at least 10" }
        if Set(secret).count < 5 { return "the passphrase uses only \(Set(secret).count) different character(s); it needs at least 5" }
        return nil
    }

    /// A PIN opens the door after a lockout: Administration's rule, the one every caller that
    /// sets a PIN is held to.
    public static let pin = SecretRule(summary: PINRule.summary) { PINRule.problem($0) }
}
