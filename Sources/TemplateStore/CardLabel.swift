import Foundation

/// What a user's card is called ("blue-fob"), checked when made: the rules of a finger label.
public struct CardLabel: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public static let maximumLength = 64

    public let text: String

    public init(validating text: String) throws(NameError) {
        let normalised = text.precomposedStringWithCanonicalMapping
        try NameRules.check(normalised, .cardLabel, maximumCharacters: Self.maximumLength,
                            maximumBytes: 4 * Self.maximumLength,
                            allowed: { !$0.isWhitespace && !$0.unicodeScalars.contains(where: NameRules.isUnsafe) })
        self.text = normalised
    }

    public init(stringLiteral value: String) {
        do { try self.init(validating: value) } catch { preconditionFailure("\(error)") }
    }

    public var description: String { text }
}
