import Foundation

/// A detection error trade-off (DET) curve as an SVG picture: false non-match rate against
/// false match rate, both on log scales, one curve per matcher, as FVC reports draw them.
public enum DETPicture {
    public struct Curve: Sendable {
        public var label: String
        public var genuine: [Double]
        public var impostor: [Double]
        public init(label: String, genuine: [Double], impostor: [Double]) {
            self.label = label
            self.genuine = genuine
            self.impostor = impostor
        }
    }

    public static func svg(title: String, curves: [Curve]) -> String {
        let width = 640.0, height = 480.0, left = 70.0, right = 20.0, top = 40.0, bottom = 60.0
        let low = -4.0 // 10⁻⁴ … 10⁰ on both axes
        func x(_ rate: Double) -> Double { left + (log10(max(rate, 1e-4)) - low) / -low * (width - left - right) }
        func y(_ rate: Double) -> Double { top + (1 - (log10(max(rate, 1e-4)) - low) / -low) * (height - top - bottom) }
        var out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        out += "<text x=\"\(Int(width / 2))\" y=\"24\" text-anchor=\"middle\" font-size=\"14\">\(escaped(title))</text>\n"
        for power in 0...4 {
            let rate = pow(10, -Double(power))
            let label = power == 0 ? "1" : "1e-\(power)"
            out += "<line x1=\"\(f(x(rate)))\" y1=\"\(f(top))\" x2=\"\(f(x(rate)))\" y2=\"\(f(height - bottom))\" stroke=\"#ddd\"/>\n"
            out += "<line x1=\"\(f(left))\" y1=\"\(f(y(rate)))\" x2=\"\(f(width - right))\" y2=\"\(f(y(rate)))\" stroke=\"#ddd\"/>\n"
            out += "<text x=\"\(f(x(rate)))\" y=\"\(f(height - bottom + 16))\" text-anchor=\"middle\">\(label)</text>\n"
            out += "<text x=\"\(f(left - 6))\" y=\"\(f(y(rate) + 4))\" text-anchor=\"end\">\(label)</text>\n"
        }
        out += "<text x=\"\(Int(width / 2))\" y=\"\(Int(height - 16))\" text-anchor=\"middle\">false match rate</text>\n"
        out += "<text x=\"16\" y=\"\(Int(height / 2))\" text-anchor=\"middle\" transform=\"rotate(-90 16 \(Int(height / 2)))\">false non-match rate</text>\n"
        let colours = ["#c0392b", "#2c3e50", "#27ae60", "#8e44ad"]
        for (index, curve) in curves.enumerated() {
            let g = curve.genuine.sorted(), i = curve.impostor.sorted()
            guard !g.isEmpty, !i.isEmpty else { continue }
            var points: [String] = []
            for t in Array(Set(g + i)).sorted() + [Double.infinity] {
                let fmr = Double(i.count - ErrorRates.lowerBound(i, t)) / Double(i.count)
                let fnmr = Double(ErrorRates.lowerBound(g, t)) / Double(g.count)
                points.append("\(f(x(fmr))),\(f(y(fnmr)))")
            }
            let colour = colours[index % colours.count]
            out += "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\"/>\n"
            out += "<text x=\"\(f(width - right - 8))\" y=\"\(f(top + 18 + Double(index) * 16))\" text-anchor=\"end\" fill=\"\(colour)\">\(escaped(curve.label))</text>\n"
        }
        return out + "</svg>\n"
    }

    static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
