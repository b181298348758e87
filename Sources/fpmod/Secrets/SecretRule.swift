/// What a newly chosen secret must satisfy. The rule's text is shown in the prompt, so nobody
/// learns it only from a refusal.
struct SecretRule: Sendable {
    /// "at least 10 characters, at least 5 of them different", for the prompt and the error.
    let summary: String
    /// The problem with `secret`, or nil when it passes.
    let problem: @Sendable (String) -> String?

    /// A backup passphrase guards every template against an offline attacker who has the file,
    /// so it must be long; a repeated or near-repeated string ("aaaaaaaaaa", "ababababab") is not.
    static let backupPassphrase = SecretRule(summary: "at least 10 characters, at least 5 of them different") { secret in
        if secret.count < 10 { return "the passphrase has \(secret.count) character(s); it needs at least 10" }
        if Set(secret).count < 5 { return "the passphrase uses only \(Set(secret).count) different character(s); it needs at least 5" }
        return nil
    }

    /// A PIN opens the door after a lockout; the service limits the guesses, but a PIN of one
    /// repeated digit is the first one anybody tries.
    static let pin = SecretRule(summary: "4 to 12 digits, not all the same") { secret in
        if !secret.allSatisfy({ $0.isASCII && $0.isNumber }) { return "a PIN has only digits" }
        if !(4...12).contains(secret.count) { return "the PIN has \(secret.count) digit(s); it needs 4 to 12" }
        if Set(secret).count == 1 { return "a PIN of one repeated digit is the first one anybody tries" }
        return nil
    }
}
