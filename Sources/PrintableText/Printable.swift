// Text that came from a user or a file (a name, a display name, a label, a stored detail, a
// module's product string) is shown through this before it reaches a terminal, a log line or a
// journal: an escape sequence in a display name must not recolour, move or clear anybody's
// terminal, and a right-to-left override must not make a log line read differently than it is.

/// Escapes the characters that act on a terminal or reorder text instead of showing: C0
/// controls, DEL, C1 controls (U+0080–U+009F: U+009B is a CSI on some terminals), the bidi
/// controls (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069) and the line and paragraph
/// separators U+2028/U+2029. Everything else, other scripts and emoji included, stays as it is.
public enum Printable {
    /// `text` with each such character written visibly: `\n`, `\r`, `\t`, `\e` (escape), or
    /// `\u{1B}`-style hex for the rest (`\u{07}`, `\u{9B}`, `\u{202E}`).
    ///
    /// A backslash is left alone, so escaping twice changes nothing more (the forms above hold
    /// no control character) and a path or a Windows-style name reads as typed.
    /// - Parameter keepingLineBreaks: keep `\n` and `\t` as they are, for a whole message of
    ///   several lines; a single name or value never keeps them.
    public static func escaped(_ text: some StringProtocol, keepingLineBreaks: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0, keepingLineBreaks: keepingLineBreaks) }) else {
            return String(text)
        }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar, keepingLineBreaks: keepingLineBreaks) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{1B}": out += "\\e"
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u{" + (hex.count < 2 ? "0" : "") + hex + "}"
            }
        }
        return out
    }

    /// Whether `scalar` acts on a terminal or on the order of text rather than showing. The JSON
    /// writer escapes the same set (as `\uXXXX`), so JSON printed on a terminal is as safe.
    public static func needsEscape(_ scalar: Unicode.Scalar, keepingLineBreaks: Bool = false) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: return !keepingLineBreaks
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        case 0x2028, 0x2029: return true
        default: return false
        }
    }
}
