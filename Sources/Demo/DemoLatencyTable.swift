import DoorLock
import FingerprintProtocol
import Foundation
import ModuleSimulator

/// The touch-to-relay table: per unlock, where the milliseconds went, and the floor a real module
/// on this wire imposes (its datasheet processing times plus the bytes at the baud rate).
enum DemoLatencyTable {
    /// One measured unlock: who, and the service's stage stamps.
    struct Row {
        var label: String
        var timing: ScanTiming
    }

    static let columns = ["start", "capture", "extract", "search", "decide", "relay", "total"]

    /// The stage durations in ms: edge→capture start, capture, extract, search, policy, relay, edge→relay.
    static func stages(_ t: ScanTiming) -> [Double] {
        func ms(_ from: UInt64, _ to: UInt64) -> Double { to >= from && from != 0 ? Double(to - from) / 1e6 : .nan }
        return [ms(t.edge, t.captureStart), ms(t.captureStart, t.captureEnd), ms(t.captureEnd, t.extractEnd),
                ms(t.extractEnd, t.searchEnd), ms(t.searchEnd, t.decision), ms(t.decision, t.relayOn), ms(t.edge, t.relayOn)]
    }

    /// The module + wire floor for GenImg → Img2Tz → Search over `templates` templates.
    static func limit(profile: SimulatorProfile, baudRate: Int, templates: Int) -> [Double] {
        let model = TimingModel(profile: profile, mode: .datasheet)
        // Only the reply is paced: a pseudo-terminal hands the simulator each command at once,
        // where a real UART would add its 12–17 bytes of wire time too.
        func wire(_ command: Command, ackContent: Int) -> Double {
            let bytes = Frame.prefixSize + ackContent + 2
            return WireTime.seconds(bytes: bytes, baudRate: baudRate) * 1000
        }
        func ms(_ duration: Duration) -> Double {
            Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        }
        let capture = ms(model.captureDuration(fingerPresent: true)) + wire(.genImg, ackContent: 1)
        let extract = ms(model.extractDuration()) + wire(.img2Tz(buffer: 1), ackContent: 1)
        // Search's ack carries the slot and score: code + 2 + 2 bytes.
        let search = ms(model.searchDuration(templates: templates)) + wire(.search(buffer: 1, start: 0, count: templates), ackContent: 5)
        return [0, capture, extract, search, 0, 0, capture + extract + search]
    }

    static func render(_ rows: [Row], limit: [Double], limitLabel: String) -> String {
        let labelWidth = max(24, (rows.map(\.label) + [limitLabel]).map(\.count).max() ?? 0)
        func pad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
        func line(_ label: String, _ values: [String]) -> String {
            "  " + label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + values.map { pad($0, 9) }.joined()
        }
        func number(_ value: Double) -> String { value.isNaN ? "–" : String(format: "%.1f", value) }
        var text = [line("unlock (ms)", columns)]
        text.append("  " + String(repeating: "─", count: labelWidth + 9 * columns.count))
        for row in rows { text.append(line(row.label, stages(row.timing).map(number))) }
        text.append("  " + String(repeating: "─", count: labelWidth + 9 * columns.count))
        text.append(line(limitLabel, limit.enumerated().map { index, value in [0, 4, 5].contains(index) ? "–" : number(value) }))
        return text.joined(separator: "\n")
    }
}
