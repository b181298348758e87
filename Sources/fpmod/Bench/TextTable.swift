/// A plain-text table: a header row, a rule, then rows; the first column left-aligned, the
/// others right-aligned (they hold numbers). Also renders as a Markdown table for the README.
struct TextTable {
    var header: [String]
    var rows: [[String]] = []

    init(_ header: [String]) { self.header = header }

    mutating func add(_ row: [String]) { rows.append(row) }

    func rendered() -> String {
        let all = [header] + rows
        let columns = all.map(\.count).max() ?? 0
        let widths = (0..<columns).map { column in all.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            (0..<columns).map { column in
                let cell = column < cells.count ? cells[column] : ""
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + padding : padding + cell
            }.joined(separator: "  ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).map { $0.trimmingTrailingSpaces() }.joined(separator: "\n") + "\n"
    }

    func markdown() -> String {
        let columns = header.count
        // Built in steps: Swift 6.0's type checker gives up on the one-expression form.
        let alignment: [String] = (0..<columns).map { $0 == 0 ? "---" : "---:" }
        let headerLine: String = "| " + header.joined(separator: " | ") + " |"
        let alignmentLine: String = "|" + alignment.joined(separator: "|") + "|"
        var lines: [String] = [headerLine, alignmentLine]
        lines += rows.map { "| " + $0.joined(separator: " | ") + " |" }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
