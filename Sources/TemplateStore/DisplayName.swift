import Foundation

/// The name shown in logs and events ("Zoë Martin"): 1 to 64 characters, spaces and any letters
/// allowed, but no control characters (a terminal would obey an escape sequence) and no
/// text-direction marks (they make one name look like another); normalised to NFC. Only
/// constructed valid (see `UserName`).
public struct DisplayName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public static let maximumLength = 64

    public let text: String

    public init(validating text: String) throws(NameError) {
        let normalised = text.precomposedStringWithCanonicalMapping
        try NameRules.check(normalised, .displayName, maximumCharacters: Self.maximumLength,
                            maximumBytes: 4 * Self.maximumLength,
                            allowed: { !$0.unicodeScalars.contains(where: NameRules.isUnsafe) })
        self.text = normalised
    }

    /// A user's default display name is the user name.
    public init(_ name: UserName) {
        text = name.text
    }

    public init(stringLiteral value: String) {
        do { try self.init(validating: value) } catch { preconditionFailure("\(error)") }
    }

    public var description: String { text }
}
