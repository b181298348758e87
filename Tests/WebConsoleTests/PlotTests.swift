import Foundation
import Testing
import WebConsole

/// Deterministic pseudo-random numbers (a linear congruential generator) for test data.
struct TestNumbers {
    var state: UInt64
    mutating func next() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53)
    }
}

/// Every numeric attribute of every element parses as a finite number; NaN and inf appear nowhere.
func expectFiniteNumbers(_ svg: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!svg.contains("NaN") && !svg.contains("nan"), "NaN in the SVG", sourceLocation: sourceLocation)
    #expect(!svg.contains("inf") && !svg.contains("Inf"), "an infinity in the SVG", sourceLocation: sourceLocation)
    guard let root = parseXML(svg, sourceLocation: sourceLocation) else { return }
    let numeric: Set<String> = ["x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "r", "width", "height", "dy", "data-count"]
    for element in root.all {
        for (name, value) in element.attributes where numeric.contains(name) {
            #expect(Double(value)?.isFinite == true, "\(name)=\"\(value)\" on <\(element.name)>", sourceLocation: sourceLocation)
        }
    }
}

/// The common frame: an <svg> root with a viewBox, role="img", a <title> and a <desc>.
func expectPicture(_ svg: String, title: String, sourceLocation: SourceLocation = #_sourceLocation) -> Element? {
    guard let root = parseXML(svg, sourceLocation: sourceLocation) else { return nil }
    #expect(root.name == "svg", sourceLocation: sourceLocation)
    #expect(root.attributes["viewBox"] == "0 0 640 360", sourceLocation: sourceLocation)
    #expect(root.attributes["role"] == "img", sourceLocation: sourceLocation)
    #expect(root.children.first?.name == "title", sourceLocation: sourceLocation)
    #expect(root.children.first?.allText == title, sourceLocation: sourceLocation)
    #expect(root.children.dropFirst().first?.name == "desc", sourceLocation: sourceLocation)
    #expect(cspProblems(root).isEmpty, "CSP: \(cspProblems(root))", sourceLocation: sourceLocation)
    expectFiniteNumbers(svg, sourceLocation: sourceLocation)
    return root
}

func summary(_ root: Element) -> String { root.elements("desc").first?.allText ?? "" }
func counts(_ root: Element, _ name: String) -> [Int] {
    root.all.filter { $0.attributes["class"] == name }.compactMap { Int($0.attributes["data-count"] ?? "") }
}
func isNoData(_ root: Element) -> Bool {
    root.all.contains { $0.attributes["data-empty"] == "true" } && root.allText.contains("No data yet")
}

@Suite struct PlotTests {
    @Test func aHistogramsBinsAddUpToItsValues() throws {
        var numbers = TestNumbers(state: 26)
        let values = (0..<137).map { _ in 120 + 300 * numbers.next() * numbers.next() }
        let svg = SVGPlot.histogram(title: "Touch to decision", xLabel: "Latency", unit: "ms", values: values)
        let root = try #require(expectPicture(svg, title: "Touch to decision"))
        let bars = counts(root, "bar")
        #expect(bars.count == 20)
        #expect(bars.reduce(0, +) == 137)
        let text = summary(root)
        #expect(text.hasPrefix("137 values: median "))
        #expect(text.contains("95th percentile"))
        #expect(text.contains(" ms"))
        #expect(root.allText.contains("Latency (ms)"))
        #expect(svg == SVGPlot.histogram(title: "Touch to decision", xLabel: "Latency", unit: "ms", values: values), "deterministic")
    }

    @Test(arguments: [1, 7, 20, 200])
    func anyBinCountAddsUp(_ bins: Int) throws {
        var numbers = TestNumbers(state: UInt64(bins))
        let values = (0..<500).map { _ in numbers.next() * 1000 }
        let root = try #require(expectPicture(SVGPlot.histogram(title: "T", xLabel: "X", unit: "", values: values, binCount: bins), title: "T"))
        #expect(counts(root, "bar").count == bins)
        #expect(counts(root, "bar").reduce(0, +) == 500)
    }

    @Test func silyBinCountsAreBounded() throws {
        let zero = try #require(parseXML(SVGPlot.histogram(title: "T", xLabel: "X", unit: "", values: [1, 2, 3], binCount: 0)))
        #expect(counts(zero, "bar") == [3])
        let huge = try #require(parseXML(SVGPlot.histogram(title: "T", xLabel: "X", unit: "", values: [1, 2, 3], binCount: 100_000)))
        #expect(counts(huge, "bar").count == 200)
        #expect(counts(huge, "bar").reduce(0, +) == 3)
    }

    @Test func oneValueAndEqualValuesDrawWithoutNaN() throws {
        for values in [[42.0], [7, 7, 7, 7], [0.0], [0, 0], [-3.5, -3.5], [1e-12, 1e-12]] {
            let root = try #require(expectPicture(SVGPlot.histogram(title: "Equal", xLabel: "X", unit: "ms", values: values), title: "Equal"))
            #expect(counts(root, "bar").reduce(0, +) == values.count, "\(values)")
            #expect(!isNoData(root))
        }
    }

    @Test func valuesThatAreNotFiniteAreLeftOutAndCounted() throws {
        let svg = SVGPlot.histogram(title: "T", xLabel: "X", unit: "ms", values: [1, .nan, .infinity, 2, -.infinity])
        let root = try #require(expectPicture(svg, title: "T"))
        #expect(counts(root, "bar").reduce(0, +) == 2)
        #expect(summary(root).contains("3 not finite"))
        let none = try #require(expectPicture(SVGPlot.histogram(title: "T", xLabel: "X", unit: "ms", values: [.nan]), title: "T"))
        #expect(isNoData(none))
    }

    @Test func emptyInputDrawsTheNoDataPicture() throws {
        let histogram = try #require(expectPicture(SVGPlot.histogram(title: "Latency", xLabel: "Latency", unit: "ms", values: []), title: "Latency"))
        #expect(isNoData(histogram))
        #expect(summary(histogram).hasPrefix("No data yet"))
        let scatter = try #require(expectPicture(SVGPlot.scatter(title: "Identify", xLabel: "Fingers", yLabel: "Time (ms)", points: []), title: "Identify"))
        #expect(isNoData(scatter))
        let hourly = try #require(expectPicture(SVGPlot.hourlyBars(title: "Per hour", hours: []), title: "Per hour"))
        #expect(isNoData(hourly))
    }

    @Test func histogramTicksAreNice() throws {
        let root = try #require(parseXML(SVGPlot.histogram(title: "T", xLabel: "X", unit: "", values: [3, 17, 250, 977])))
        let xAxis = try #require(root.all.first { $0.attributes["class"] == "x-axis" })
        let ticks = xAxis.elements("text").compactMap { Double($0.allText) }
        #expect(ticks.count >= 3)
        let steps = Set(zip(ticks.dropFirst(), ticks).map { $0 - $1 })
        #expect(steps.count == 1, "evenly spaced: \(ticks)")
        let step = try #require(steps.first)
        let mantissa = step / pow(10, log10(step).rounded(.down))
        #expect([1.0, 2.0, 5.0].contains { abs($0 - mantissa) < 1e-9 }, "step \(step)")
        #expect(ticks.first ?? 1 <= 3 && ticks.last ?? 0 >= 977)
    }

    @Test func textIsEscaped() throws {
        let hostile = "<b>&\"'\u{1} lat"
        let svg = SVGPlot.histogram(title: hostile, xLabel: hostile, unit: "<ms>", values: [1, 2])
        #expect(!svg.contains("<b>"))
        let root = try #require(parseXML(svg))
        #expect(root.elements("title").first?.allText == "<b>&\"'\u{FFFD} lat")
        let hourly = SVGPlot.hourlyBars(title: hostile, hours: [(label: "<00>", grants: 1, denials: 0)])
        let hourlyRoot = try #require(parseXML(hourly))
        #expect(hourlyRoot.allText.contains("<00>"))
        let scatter = SVGPlot.scatter(title: hostile, xLabel: "<x>", yLabel: "\"y\"", points: [(x: 1, y: 2)])
        #expect(parseXML(scatter) != nil)
    }

    @Test func aScatterHasOneDotPerPoint() throws {
        let points = (1...40).map { (x: Double($0 * 25), y: 12 + Double($0) * 0.4) }
        let svg = SVGPlot.scatter(title: "Identify time", xLabel: "Fingers enrolled", yLabel: "Identify time (ms)", points: points)
        let root = try #require(expectPicture(svg, title: "Identify time"))
        #expect(root.elements("circle").count == 40)
        #expect(summary(root).hasPrefix("40 points: Fingers enrolled from 25 to 1000"))
        #expect(svg == SVGPlot.scatter(title: "Identify time", xLabel: "Fingers enrolled", yLabel: "Identify time (ms)", points: points))
    }

    @Test func aScatterOfOnePointOrEqualPointsOrBadPoints() throws {
        for points in [[(x: 5.0, y: 5.0)], [(x: 0.0, y: 0.0), (x: 0.0, y: 0.0)], [(x: Double.nan, y: 1.0), (x: 3.0, y: .infinity), (x: 2.0, y: 9.0)]] {
            let root = try #require(expectPicture(SVGPlot.scatter(title: "S", xLabel: "X", yLabel: "Y", points: points), title: "S"))
            #expect(root.elements("circle").count == points.filter { $0.x.isFinite && $0.y.isFinite }.count)
        }
    }

    @Test func hourlyBarsCarryTheirCounts() throws {
        let hours = (0..<24).map { (label: String(format: "%02d", $0), grants: ($0 * 7) % 11, denials: $0 % 3 == 0 ? 2 : 0) }
        let svg = SVGPlot.hourlyBars(title: "Grants and denials per hour", hours: hours)
        let root = try #require(expectPicture(svg, title: "Grants and denials per hour"))
        #expect(counts(root, "grants") == hours.map(\.grants))
        #expect(counts(root, "denials") == hours.map(\.denials))
        let grants = hours.map(\.grants).reduce(0, +), denials = hours.map(\.denials).reduce(0, +)
        #expect(summary(root).hasPrefix("Over 24 hours: \(grants) grants and \(denials) denials"))
        #expect(root.allText.contains("Grants") && root.allText.contains("Denials"))
    }

    @Test func hourlyBarsWithNothingOrNegativeCounts() throws {
        let quiet = try #require(expectPicture(SVGPlot.hourlyBars(title: "H", hours: [(label: "08", grants: 0, denials: 0)]), title: "H"))
        #expect(counts(quiet, "grants") == [0])
        #expect(summary(quiet) == "Over 1 hour: 0 grants and 0 denials.")
        let negative = try #require(expectPicture(SVGPlot.hourlyBars(title: "H", hours: [(label: "09", grants: -4, denials: 3)]), title: "H"))
        #expect(counts(negative, "grants") == [0])
        #expect(counts(negative, "denials") == [3])
    }
}
