import Imaging
import Wiegand


/// A monotonic time somewhere after boot, so no test relies on starting at 0.
let boot: UInt64 = 3_600_000_000_000

func bits(_ text: String) -> WiegandBits {
    guard let bits = WiegandBits(text) else { preconditionFailure("not a bit string: \(text)") }
    return bits
}

/// The falling edges of a bit string sent every `interval` from `start`, each moved by up to
/// ±`jitter` (kept in order) when a generator is given.
func edges(
    _ frame: WiegandBits, start: UInt64, interval: UInt64 = 1_000_000, jitter: UInt64 = 0,
    using generator: inout SeededGenerator
) -> [WiegandEdge] {
    (0..<frame.count).map { index in
        let nominal = start + UInt64(index) * interval
        let shift = jitter == 0 ? 0 : UInt64.random(in: 0...(2 * jitter), using: &generator)
        return WiegandEdge(line: WiegandLine(bit: frame[index]), timestamp: nominal - jitter + shift)
    }
}

func edges(_ frame: WiegandBits, start: UInt64, interval: UInt64 = 1_000_000) -> [WiegandEdge] {
    var unused = SeededGenerator(seed: 0)
    return edges(frame, start: start, interval: interval, using: &unused)
}

/// The edges of a pulse schedule started at `start`.
func edges(_ schedule: [WiegandPulse], start: UInt64) -> [WiegandEdge] {
    schedule.map { WiegandEdge(line: $0.line, timestamp: start + $0.start) }
}

/// Every event a decoder gives for these edges, then for the silence after them.
func decodeAll(_ edges: [WiegandEdge], decoder: inout WiegandDecoder) -> [WiegandEvent] {
    var events: [WiegandEvent] = []
    for edge in edges {
        if let event = decoder.feed(edge) { events.append(event) }
    }
    if let deadline = decoder.deadline, let event = decoder.poll(now: deadline) { events.append(event) }
    return events
}

func decodeAll(_ edges: [WiegandEdge], timing: WiegandDecoder.Timing = .standard) -> [WiegandEvent] {
    var decoder = WiegandDecoder(timing: timing)
    return decodeAll(edges, decoder: &decoder)
}

extension WiegandEvent {
    var isCard: Bool { if case .card = self { true } else { false } }
    var isKey: Bool { if case .key = self { true } else { false } }
    var rejection: WiegandRejection? { if case .rejected(let reason) = self { reason } else { nil } }
    /// A card's format, facility and number as text ("26-bit 123/4567").
    var card: String? {
        if case .card(let format, let facility, let number, _) = self { "\(format) \(facility)/\(number)" } else { nil }
    }
}
