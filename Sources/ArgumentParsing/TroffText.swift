// Escaping for troff input (man(7) pages): text meant to be printed as written, whatever
// characters it holds, on any output device groff or mandoc has.

enum TroffText {
    /// Prose: backslashes escaped, non-ASCII characters as named glyphs, `` `code` `` spans in bold,
    /// and the hyphens of option-like words (`--port`, `-v`, `--sim-gpio`) as minus signs so they
    /// can be copied and typed; hyphens inside words (`right-index`, `first-run`) stay hyphens.
    static func prose(_ text: String) -> String {
        var output = ""
        var previous: Character?
        var inOptionWord = false
        var inCode = false
        for character in text {
            if character == "`" {
                output += inCode ? "\\fR" : "\\fB"
                inCode.toggle()
                previous = character
                continue
            }
            if character == "-" {
                let startsWord = previous.map { !($0.isLetter || $0.isNumber) } ?? true
                if startsWord { inOptionWord = true }
                output += inCode || inOptionWord ? "\\-" : "-"
            } else {
                if !(character.isLetter || character.isNumber || character == "_") { inOptionWord = false }
                output += glyph(character)
            }
            previous = character
        }
        if inCode { output += "\\fR" }
        return output
    }

    /// Something typed literally (an option, a command, a value, a variable name): every hyphen
    /// is a minus sign.
    static func literal(_ text: String) -> String {
        text.map { $0 == "-" ? "\\-" : glyph($0) }.joined()
    }

    /// `\fBtext\fR`: a literal in bold.
    static func bold(_ text: String) -> String { "\\fB" + literal(text) + "\\fR" }

    /// `\fItext\fR`: a placeholder (a value name, an argument) in italics.
    static func italic(_ text: String) -> String { "\\fI" + literal(text) + "\\fR" }

    /// One argument of a request such as `.TH` or `.SS`, in double quotes.
    static func argument(_ text: String) -> String {
        "\"" + prose(text).map { $0 == "\"" ? "\\(dq" : String($0) }.joined() + "\""
    }

    /// A text line of the page. troff reads a line starting with `.` or `'` as a request and a
    /// line starting with a space as a break, so such lines get the zero-width `\&` in front.
    static func line(_ text: String) -> String {
        guard let first = text.first, first == "." || first == "'" || first == " " else { return text }
        return "\\&" + text
    }

    /// A character in a form every troff device prints: backslashes as `\e`, non-ASCII
    /// characters as named glyphs where one exists and as `\[uXXXX]` otherwise.
    static func glyph(_ character: Character) -> String {
        switch character {
        case "\\": return "\\e"
        case "\n": return " "
        case "…": return "..."
        case "–": return "\\(en"
        case "—": return "\\(em"
        case "×": return "\\(mu"
        case "→": return "\\(->"
        case "“": return "\\(lq"
        case "”": return "\\(rq"
        case "‘": return "\\(oq"
        case "’": return "\\(cq"
        default: break
        }
        if character.isASCII { return String(character) }
        return character.unicodeScalars.map { scalar in
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
        }.joined()
    }
}
