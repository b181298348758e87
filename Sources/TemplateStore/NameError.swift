/// Why a text cannot be a user name, a finger label or a display name. The description names
/// the problem and states the whole rule (characters and length), so the CLI, the control
/// socket and the MQTT bridge can pass it on as it is.
public struct NameError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Field: String, Sendable {
        case userName = "user name"
        case fingerLabel = "finger label"
        case displayName = "display name"
        case cardLabel = "card label"
        case ruleName = "schedule or holiday name"
        case consoleName = "console account or token name"

        /// The rule in words a maker understands.
        var rule: String {
            switch self {
            case .userName:
                "A user name is 1 to \(UserName.maximumLength) characters: ASCII letters (a to z, A to Z), digits, "
                    + "'.', '_', '-' and '@', with no spaces or accented letters; a full name such as \"Zoë Martin\" "
                    + "goes in the display name (--display-name)."
            case .fingerLabel:
                "A finger label is 1 to \(FingerLabel.maximumLength) characters with no spaces, control characters or "
                    + "text-direction marks, such as right-index or left-pinky."
            case .cardLabel:
                "A card label is 1 to \(CardLabel.maximumLength) characters with no spaces, control characters or "
                    + "text-direction marks, such as blue-fob or badge-2024."
            case .ruleName:
                "A schedule or holiday name is 1 to \(RuleName.maximumLength) characters: ASCII letters, digits, '.', "
                    + "'_' and '-', such as office-hours or christmas."
            case .consoleName:
                "A console account or token name is 1 to \(ConsoleName.maximumLength) characters: ASCII letters, digits, "
                    + "'.', '_', '-' and '@', such as alice or backup-script."
            case .displayName:
                "A display name is 1 to \(DisplayName.maximumLength) characters (spaces and accented letters are fine) "
                    + "with no control characters (such as a line break or the escape character) or text-direction marks."
            }
        }
    }

    public enum Problem: Equatable, Sendable {
        case empty
        /// Longer than the rule allows (`characters` counted as a person would, `bytes` in UTF-8).
        case tooLong(characters: Int, bytes: Int)
        /// The first character the rule does not allow.
        case character(Character)
    }

    public let field: Field
    /// What was given, kept for the caller (never printed raw: see `description`).
    public let text: String
    public let problem: Problem

    public init(_ field: Field, _ text: String, _ problem: Problem) {
        self.field = field
        self.text = text
        self.problem = problem
    }

    public var description: String { summary + ". " + field.rule }

    /// The problem without the rule: `"Zoë" cannot be a user name: "ë" is not allowed`.
    public var summary: String {
        switch problem {
        case .empty:
            return "an empty \(field.rawValue) is not allowed"
        case .tooLong(let characters, let bytes):
            let size = characters > Self.limit(field) ? "\(characters) characters" : "\(bytes) bytes"
            return "\(Self.shown(text)) cannot be a \(field.rawValue): it is too long (\(size))"
        case .character(let character):
            return "\(Self.shown(text)) cannot be a \(field.rawValue): \(Self.named(character)) is not allowed"
        }
    }

    private static func limit(_ field: Field) -> Int {
        switch field {
        case .userName: UserName.maximumLength
        case .fingerLabel: FingerLabel.maximumLength
        case .displayName: DisplayName.maximumLength
        case .cardLabel: CardLabel.maximumLength
        case .ruleName: RuleName.maximumLength
        case .consoleName: ConsoleName.maximumLength
        }
    }

    /// The text quoted for a message: control and invisible direction characters written as
    /// escapes (a terminal must never receive them from user input), and cut after 40 characters.
    public static func shown(_ text: String) -> String {
        let cut = text.count > 40 ? String(text.prefix(40)) + "…" : text
        var out = ""
        for scalar in cut.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            default:
                out += NameRules.isUnsafe(scalar) ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
            }
        }
        return "\"" + out + "\""
    }

    /// "a space", "a line break", "the escape character", "\"ë\"".
    static func named(_ character: Character) -> String {
        switch character {
        case " ": return "a space"
        case "\n", "\r", "\r\n", "\u{2028}", "\u{2029}": return "a line break"
        case "\t": return "a tab"
        case "\u{1B}": return "the escape character"
        default:
            if character.unicodeScalars.contains(where: NameRules.isUnsafe) {
                let codes = character.unicodeScalars.map { "U+" + String($0.value, radix: 16, uppercase: true) }
                return "the invisible control character \(codes.joined(separator: " "))"
            }
            if character.isWhitespace { return "a space character" }
            return shown(String(character))
        }
    }
}

/// The character classes the three name types share.
enum NameRules {
    /// C0 and C1 controls, DEL, and the invisible characters that reorder or hide text
    /// (bidi embeddings, overrides, isolates and marks; line and paragraph separators).
    static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.properties.generalCategory == .control { return true }
        switch scalar.value {
        case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// The first character that fails `allowed`, or nil.
    static func firstRefused(in text: String, allowed: (Character) -> Bool) -> Character? {
        text.first { !allowed($0) }
    }

    /// Checks length and characters; `maximumBytes` keeps a few characters heavy with combining
    /// marks from growing without bound.
    static func check(_ text: String, _ field: NameError.Field, maximumCharacters: Int, maximumBytes: Int,
                      allowed: (Character) -> Bool) throws(NameError) {
        guard !text.isEmpty else { throw NameError(field, text, .empty) }
        if let refused = firstRefused(in: text, allowed: allowed) { throw NameError(field, text, .character(refused)) }
        let characters = text.count, bytes = text.utf8.count
        guard characters <= maximumCharacters, bytes <= maximumBytes else {
            throw NameError(field, text, .tooLong(characters: characters, bytes: bytes))
        }
    }
}
