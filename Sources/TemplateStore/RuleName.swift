/// The name of a schedule or a holiday (`office-hours`, `christmas`): typed in shells, shown in
/// events and audit rows, so ASCII letters, digits, `.`, `_` and `-` only, checked where it
/// comes in.
public struct RuleName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public static let maximumLength = 64

    public let text: String

    public init(validating text: String) throws(NameError) {
        try NameRules.check(text, .ruleName, maximumCharacters: Self.maximumLength, maximumBytes: Self.maximumLength,
                            allowed: { $0.isASCII && ($0.isLetter || $0.isNumber || ".-_".contains($0)) })
        self.text = text
    }

    public init(stringLiteral value: String) {
        do { try self.init(validating: value) } catch { preconditionFailure("\(error)") }
    }

    public var description: String { text }
}
