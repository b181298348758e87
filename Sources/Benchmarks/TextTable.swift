/// A plain-text table: a header row, a rule, then rows; the first column left-aligned, the
/// others right-aligned (they hold numbers). Also renders as a Markdown table for the README.
public struct TextTable {
    public var header: [String]
    public var rows: [[String]] = []

    public init(_ header: [String]) { self.header = header }

    public mutating func add(_ row: [String]) { rows.append(row) }

    public func rendered() -> String {
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

    public func markdown() -> String {
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
    public func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
