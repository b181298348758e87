import Foundation

/// Which finger of a user ("right-index", "left-pinky"): 1 to 64 characters, no spaces, no
/// control characters or text-direction marks; normalised to NFC, so an accent typed either way
/// is one label. Only constructed valid (see `UserName`).
public struct FingerLabel: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    public static let maximumLength = 64

    public let text: String

    public init(validating text: String) throws(NameError) {
        let normalised = text.precomposedStringWithCanonicalMapping
        try NameRules.check(normalised, .fingerLabel, maximumCharacters: Self.maximumLength,
                            maximumBytes: 4 * Self.maximumLength,
                            allowed: { !$0.isWhitespace && !$0.unicodeScalars.contains(where: NameRules.isUnsafe) })
        self.text = normalised
    }

    public init(stringLiteral value: String) {
        do { try self.init(validating: value) } catch { preconditionFailure("\(error)") }
    }

    public var description: String { text }
}
