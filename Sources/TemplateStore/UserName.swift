/// A user name as people type it on the command line and scripts put it in topics and logs:
/// 1 to 64 ASCII letters, digits, `.`, `_`, `-` and `@`. Only constructed valid, so every store
/// and enrollment call that takes one cannot be handed an unchecked string: the check happens
/// where the text comes in (the CLI, the control socket, MQTT, setup), before anything is touched.
///
/// ASCII on purpose: the name is an identifier typed in shells and matched byte for byte; a
/// person's full name, accents and spaces included, is the display name.
public struct UserName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public static let maximumLength = 64

    public let text: String

    /// The check. Labelled: Swift reads `UserName("…")` with a literal as the literal (below),
    /// so the unlabelled spelling is never mistaken for a check of user input.
    public init(validating text: String) throws(NameError) {
        try NameRules.check(text, .userName, maximumCharacters: Self.maximumLength, maximumBytes: Self.maximumLength,
                            allowed: { $0.isASCII && ($0.isLetter || $0.isNumber || ".-_@".contains($0)) })
        self.text = text
    }

    /// A name written in the source (a default, a test): a wrong one is a programming error.
    public init(stringLiteral value: String) {
        do { try self.init(validating: value) } catch { preconditionFailure("\(error)") }
    }

    public var description: String { text }
}
