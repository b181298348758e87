import ConsoleHTTP
import Foundation

/// `/api/v1/plots/NAME.svg`: the three plots, drawn by the server from the audit log.
struct PlotsAPI {
    let context: ConsoleContext

    func plot(_ name: String) throws(ConsoleFailure) -> HTTPResponse {
        let data = PlotData(store: context.store)
        let svg: String
        do {
            switch name {
            case "latency.svg":
                svg = SVGPlot.histogram(title: "Touch to decision", xLabel: "milliseconds from the touch", unit: "ms",
                                        values: try data.decisionLatencies())
            case "identify.svg":
                svg = SVGPlot.scatter(title: "Identify time against library size", xLabel: "templates enrolled",
                                      yLabel: "identify ms", points: try data.identifyTimes())
            case "hourly.svg":
                svg = SVGPlot.hourlyBars(title: "Grants and denials per hour (\(context.timeZone.name))",
                                         hours: try data.hourly(zone: context.timeZone))
            default:
                throw ConsoleFailure(404, "There is no plot \(name).", fix: "The plots are latency.svg, identify.svg and hourly.svg.")
            }
        } catch let failure as ConsoleFailure {
            throw failure
        } catch {
            throw ConsoleFailure(500, "The audit log could not be read: \(error)")
        }
        return HTTPResponse(status: 200, contentType: "image/svg+xml; charset=utf-8", text: svg,
                            headers: [("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")])
    }
}
