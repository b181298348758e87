/// The console's plots as SVG documents drawn by the server: pure functions of their input (no
/// I/O, no clock), the same input giving the same bytes. Every text is escaped; every number
/// is finite (values that are not — NaN, ±inf — are left out and counted in the summary).
///
/// Each picture has a viewBox, `role="img"`, a `<title>` and a `<desc>` with a text summary that
/// a screen reader (and the plots page) reads. The colours are set as presentation attributes
/// (a `style` element would need 'unsafe-inline') on a light panel of its own; the console's
/// stylesheet inverts the picture in dark mode.
public enum SVGPlot {
    static let width = 640.0
    static let height = 360.0
    static let left = 64.0
    static let right = 620.0
    static let top = 48.0
    static let bottom = 300.0

    enum Colour {
        static let panel = "#ffffff"
        static let frame = "#d0d7de"
        static let text = "#24292f"
        static let muted = "#57606a"
        static let grid = "#e6e9ed"
        static let bar = "#0969da"
        static let point = "#8250df"
        static let grant = "#1a7f37"
        static let denial = "#cf222e"
        static let marker = "#bc4c00"
    }

    // MARK: Histogram

    /// Touch-to-decision latency and the like: `values` in `binCount` equal bins (1…200) over a
    /// nice axis, the median and 95th percentile marked and said in the summary. Each bar carries
    /// its count as `data-count`.
    public static func histogram(title: String, xLabel: String, unit: String, values: [Double], binCount: Int = 20) -> String {
        let usable = values.filter(PlotNumber.plottable).sorted()
        let ignored = values.count - usable.count
        let axisName = unit.isEmpty ? xLabel : "\(xLabel) (\(unit))"
        guard let minimum = usable.first, let maximum = usable.last else {
            return noData(title: title, what: "no \(xLabel.lowercased()) measured" + ignoredNote(ignored))
        }
        let bins = Swift.max(1, Swift.min(binCount, 200))
        let xAxis = PlotAxis(minimum: minimum, maximum: maximum, target: 6, includeZero: minimum >= 0 && minimum < maximum * 0.5)
        let binWidth = (xAxis.high - xAxis.low) / Double(bins)
        var counts = [Int](repeating: 0, count: bins)
        for value in usable {
            let raw = ((value - xAxis.low) / binWidth).rounded(.down)
            let index = raw.isFinite ? Swift.max(0, Swift.min(bins - 1, Int(raw))) : 0
            counts[index] += 1
        }
        let yAxis = PlotAxis(minimum: 0, maximum: Double(counts.max() ?? 0), target: 5, includeZero: true, integer: true)
        let median = PlotNumber.quantile(usable, 0.5)
        let p95 = PlotNumber.quantile(usable, 0.95)
        let suffix = unit.isEmpty ? "" : " \(unit)"
        let summary = "\(usable.count) value\(usable.count == 1 ? "" : "s"): median \(PlotNumber.summary(median))\(suffix), "
            + "95th percentile \(PlotNumber.summary(p95))\(suffix), from \(PlotNumber.summary(minimum)) to \(PlotNumber.summary(maximum))\(suffix)"
            + ignoredNote(ignored) + "."

        var svg = open(title: title, summary: summary)
        svg += axes(x: xAxis, y: yAxis, xLabel: axisName, yLabel: "Count")
        svg += "<g class=\"bars\" fill=\"\(Colour.bar)\">\n"
        for (index, count) in counts.enumerated() {
            let x0 = xAxis.position(xAxis.low + Double(index) * binWidth, from: left, to: right)
            let x1 = xAxis.position(xAxis.low + Double(index + 1) * binWidth, from: left, to: right)
            let y = yAxis.position(Double(count), from: bottom, to: top)
            let from = PlotNumber.format(xAxis.low + Double(index) * binWidth, decimals: xAxis.decimals + 1)
            let to = PlotNumber.format(xAxis.low + Double(index + 1) * binWidth, decimals: xAxis.decimals + 1)
            svg += "<rect class=\"bar\" data-count=\"\(count)\" x=\"\(PlotNumber.coordinate(x0 + 0.5))\" y=\"\(PlotNumber.coordinate(y))\" "
                + "width=\"\(PlotNumber.coordinate(Swift.max(0, x1 - x0 - 1)))\" height=\"\(PlotNumber.coordinate(Swift.max(0, bottom - y)))\">"
                + "<title>\(count) from \(from) to \(to)\(HTMLText.escape(suffix))</title></rect>\n"
        }
        svg += "</g>\n"
        svg += marker(at: xAxis.position(median, from: left, to: right), label: "median \(PlotNumber.summary(median))\(suffix)", row: 0)
        svg += marker(at: xAxis.position(p95, from: left, to: right), label: "p95 \(PlotNumber.summary(p95))\(suffix)", row: 1)
        return svg + "</svg>\n"
    }

    // MARK: Scatter

    /// Identify time against library size and the like: one dot per point on nice axes (from zero
    /// when all values are positive).
    public static func scatter(title: String, xLabel: String, yLabel: String, points: [(x: Double, y: Double)]) -> String {
        let usable = points.filter { PlotNumber.plottable($0.x) && PlotNumber.plottable($0.y) }
        let ignored = points.count - usable.count
        guard !usable.isEmpty else {
            return noData(title: title, what: "no measurements of \(yLabel.lowercased()) yet" + ignoredNote(ignored))
        }
        let xs = usable.map(\.x)
        let ys = usable.map(\.y).sorted()
        let xMin = xs.min() ?? 0, xMax = xs.max() ?? 0
        let yMin = ys.first ?? 0, yMax = ys.last ?? 0
        let xAxis = PlotAxis(minimum: xMin, maximum: xMax, target: 6, includeZero: xMin >= 0)
        let yAxis = PlotAxis(minimum: yMin, maximum: yMax, target: 5, includeZero: yMin >= 0)
        let summary = "\(usable.count) point\(usable.count == 1 ? "" : "s"): \(xLabel) from \(PlotNumber.summary(xMin)) to \(PlotNumber.summary(xMax)); "
            + "\(yLabel) from \(PlotNumber.summary(yMin)) to \(PlotNumber.summary(yMax)), median \(PlotNumber.summary(PlotNumber.quantile(ys, 0.5)))"
            + ignoredNote(ignored) + "."
        var svg = open(title: title, summary: summary)
        svg += axes(x: xAxis, y: yAxis, xLabel: xLabel, yLabel: yLabel)
        svg += "<g class=\"points\" fill=\"\(Colour.point)\" fill-opacity=\"0.75\">\n"
        for point in usable {
            let cx = xAxis.position(point.x, from: left, to: right)
            let cy = yAxis.position(point.y, from: bottom, to: top)
            svg += "<circle class=\"point\" cx=\"\(PlotNumber.coordinate(cx))\" cy=\"\(PlotNumber.coordinate(cy))\" r=\"4\"/>\n"
        }
        return svg + "</g>\n</svg>\n"
    }

    // MARK: Hourly bars

    /// Grants and denials per hour: a green and a red bar per hour, labelled below (every few
    /// hours when there are many), with a legend. Negative counts count as zero.
    public static func hourlyBars(title: String, hours: [(label: String, grants: Int, denials: Int)]) -> String {
        guard !hours.isEmpty else { return noData(title: title, what: "no hours to show") }
        let grants = hours.map { Swift.max(0, $0.grants) }
        let denials = hours.map { Swift.max(0, $0.denials) }
        let totalGrants = grants.reduce(0, +), totalDenials = denials.reduce(0, +)
        let peak = Swift.max(grants.max() ?? 0, denials.max() ?? 0)
        let yAxis = PlotAxis(minimum: 0, maximum: Double(peak), target: 5, includeZero: true, integer: true)
        var summary = "Over \(hours.count) hour\(hours.count == 1 ? "" : "s"): \(totalGrants) grant\(totalGrants == 1 ? "" : "s") and \(totalDenials) denial\(totalDenials == 1 ? "" : "s")"
        if totalGrants + totalDenials > 0 {
            var busiest = 0
            for index in hours.indices where grants[index] + denials[index] > grants[busiest] + denials[busiest] { busiest = index }
            summary += "; the busiest hour \(hours[busiest].label) with \(grants[busiest]) grants and \(denials[busiest]) denials"
        }
        summary += "."
        var svg = open(title: title, summary: summary)
        svg += yAxisLines(yAxis, label: "Count")
        svg += frameLines()
        let group = (right - left) / Double(hours.count)
        let barWidth = Swift.max(1, group * 0.38)
        let labelEvery = Swift.max(1, Int((Double(hours.count) / 12).rounded(.up)))
        svg += "<g class=\"hours\">\n"
        for index in hours.indices {
            let x = left + group * Double(index)
            let centre = x + group / 2
            for (kind, count, colour, offset) in [("grants", grants[index], Colour.grant, -barWidth), ("denials", denials[index], Colour.denial, 0.0)] {
                let y = yAxis.position(Double(count), from: bottom, to: top)
                svg += "<rect class=\"\(kind)\" data-count=\"\(count)\" fill=\"\(colour)\" x=\"\(PlotNumber.coordinate(centre + offset))\" y=\"\(PlotNumber.coordinate(y))\" "
                    + "width=\"\(PlotNumber.coordinate(barWidth))\" height=\"\(PlotNumber.coordinate(Swift.max(0, bottom - y)))\">"
                    + "<title>\(HTMLText.escape(hours[index].label)): \(count) \(kind)</title></rect>\n"
            }
            if index % labelEvery == 0 {
                svg += "<text x=\"\(PlotNumber.coordinate(centre))\" y=\"\(PlotNumber.coordinate(bottom + 18))\" text-anchor=\"middle\" fill=\"\(Colour.muted)\">\(HTMLText.escape(hours[index].label))</text>\n"
            }
        }
        svg += "</g>\n"
        svg += "<text x=\"\(PlotNumber.coordinate((left + right) / 2))\" y=\"\(PlotNumber.coordinate(height - 14))\" text-anchor=\"middle\" fill=\"\(Colour.text)\">Hour</text>\n"
        svg += "<g class=\"legend\">\n"
        svg += "<rect x=\"470\" y=\"18\" width=\"12\" height=\"12\" fill=\"\(Colour.grant)\"/><text x=\"487\" y=\"29\" fill=\"\(Colour.text)\">Grants</text>\n"
        svg += "<rect x=\"545\" y=\"18\" width=\"12\" height=\"12\" fill=\"\(Colour.denial)\"/><text x=\"562\" y=\"29\" fill=\"\(Colour.text)\">Denials</text>\n"
        svg += "</g>\n"
        return svg + "</svg>\n"
    }

    // MARK: Pieces

    static func ignoredNote(_ ignored: Int) -> String {
        ignored > 0 ? " (\(ignored) not finite, left out)" : ""
    }

    static func open(title: String, summary: String) -> String {
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 640 360\" width=\"640\" height=\"360\" role=\"img\" "
        svg += "aria-labelledby=\"plot-title plot-desc\" font-family=\"system-ui, 'Noto Sans', sans-serif\" font-size=\"13\">\n"
        svg += "<title id=\"plot-title\">" + HTMLText.escape(title) + "</title>\n"
        svg += "<desc id=\"plot-desc\">" + HTMLText.escape(summary) + "</desc>\n"
        svg += "<rect x=\"0.5\" y=\"0.5\" width=\"639\" height=\"359\" rx=\"8\" fill=\"\(Colour.panel)\" stroke=\"\(Colour.frame)\"/>\n"
        svg += "<text x=\"20\" y=\"30\" font-size=\"16\" font-weight=\"600\" fill=\"\(Colour.text)\">" + HTMLText.escape(title) + "</text>\n"
        return svg
    }

    static func frameLines() -> String {
        "<line x1=\"\(left)\" y1=\"\(bottom)\" x2=\"\(right)\" y2=\"\(bottom)\" stroke=\"\(Colour.muted)\"/>\n"
            + "<line x1=\"\(left)\" y1=\"\(top)\" x2=\"\(left)\" y2=\"\(bottom)\" stroke=\"\(Colour.muted)\"/>\n"
    }

    static func yAxisLines(_ axis: PlotAxis, label: String) -> String {
        var svg = "<g class=\"y-axis\">\n"
        for tick in axis.ticks {
            let y = PlotNumber.coordinate(axis.position(tick, from: bottom, to: top))
            svg += "<line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(right)\" y2=\"\(y)\" stroke=\"\(Colour.grid)\"/>"
            svg += "<text x=\"\(left - 8)\" y=\"\(y)\" dy=\"4\" text-anchor=\"end\" fill=\"\(Colour.muted)\">\(axis.label(tick))</text>\n"
        }
        let middle = PlotNumber.coordinate((top + bottom) / 2)
        svg += "<text x=\"16\" y=\"\(middle)\" text-anchor=\"middle\" transform=\"rotate(-90 16 \(middle))\" fill=\"\(Colour.text)\">\(HTMLText.escape(label))</text>\n"
        return svg + "</g>\n"
    }

    static func axes(x: PlotAxis, y: PlotAxis, xLabel: String, yLabel: String) -> String {
        var svg = yAxisLines(y, label: yLabel)
        svg += "<g class=\"x-axis\">\n"
        for tick in x.ticks {
            let px = PlotNumber.coordinate(x.position(tick, from: left, to: right))
            svg += "<line x1=\"\(px)\" y1=\"\(bottom)\" x2=\"\(px)\" y2=\"\(bottom + 5)\" stroke=\"\(Colour.muted)\"/>"
            svg += "<text x=\"\(px)\" y=\"\(bottom + 20)\" text-anchor=\"middle\" fill=\"\(Colour.muted)\">\(x.label(tick))</text>\n"
        }
        svg += "<text x=\"\(PlotNumber.coordinate((left + right) / 2))\" y=\"\(height - 14)\" text-anchor=\"middle\" fill=\"\(Colour.text)\">\(HTMLText.escape(xLabel))</text>\n"
        svg += "</g>\n"
        return svg + frameLines()
    }

    static func marker(at x: Double, label: String, row: Int) -> String {
        let px = PlotNumber.coordinate(x)
        let labelY = PlotNumber.coordinate(top + 14 + Double(row) * 16)
        let anchor = x > (left + right) / 2 ? "end" : "start"
        let textX = PlotNumber.coordinate(anchor == "end" ? x - 4 : x + 4)
        return "<g class=\"marker\"><line x1=\"\(px)\" y1=\"\(top)\" x2=\"\(px)\" y2=\"\(bottom)\" stroke=\"\(Colour.marker)\" stroke-dasharray=\"5 4\"/>"
            + "<text x=\"\(textX)\" y=\"\(labelY)\" text-anchor=\"\(anchor)\" fill=\"\(Colour.marker)\">\(HTMLText.escape(label))</text></g>\n"
    }

    /// The picture for no data: the title, empty axes and "No data yet" in the middle.
    static func noData(title: String, what: String) -> String {
        var svg = open(title: title, summary: "No data yet: " + what + ".")
        svg += "<g class=\"no-data\" data-empty=\"true\">\n"
        svg += frameLines()
        svg += "<text x=\"\(PlotNumber.coordinate((left + right) / 2))\" y=\"\(PlotNumber.coordinate((top + bottom) / 2))\" text-anchor=\"middle\" font-size=\"20\" fill=\"\(Colour.muted)\">No data yet</text>\n"
        svg += "</g>\n</svg>\n"
        return svg
    }
}
