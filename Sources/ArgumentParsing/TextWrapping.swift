// Word wrapping for help text.

enum TextWrapping {
    /// Wraps `text` to `width` columns. Each line of the input starts a new line of output
    /// (so authors control paragraphs); a word longer than the width gets a line of its own.
    /// Lines after the first are indented by `indent` spaces.
    static func wrap(_ text: String, width: Int, indent: Int = 0, firstLineUsed: Int = 0) -> String {
        let padding = String(repeating: " ", count: indent)
        var lines: [String] = []
        var used = firstLineUsed
        for (number, paragraph) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if number > 0 { used = indent }
            var line = ""
            for word in paragraph.split(separator: " ") {
                if !line.isEmpty, used + line.count + 1 + word.count > width {
                    lines.append(line)
                    line = ""
                    used = indent
                }
                line += (line.isEmpty ? "" : " ") + word
            }
            lines.append(line)
        }
        return lines.enumerated().map { $0.offset == 0 || $0.element.isEmpty ? $0.element : padding + $0.element }
            .joined(separator: "\n")
    }
}
