/// The name of a web console account or API token (`alice`, `backup-script`): shown in the
/// console, in audit rows and typed into a login form, so ASCII letters, digits, `.`, `_`, `-`
/// and `@` only, checked where it comes in (a login form, the setup page, a script's request).
public struct ConsoleName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public static let maximumLength = 64

    public let text: String

    public init(validating text: String) throws(NameError) {
        try NameRules.check(text, .consoleName, maximumCharacters: Self.maximumLength, maximumBytes: Self.maximumLength,
                            allowed: { $0.isASCII && ($0.isLetter || $0.isNumber || ".-_@".contains($0)) })
        self.text = text
    }

    public init(stringLiteral value: String) {
        do { try self.init(validating: value) } catch { preconditionFailure("\(error)") }
    }

    public var description: String { text }
}
