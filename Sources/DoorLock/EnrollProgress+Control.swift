import Administration
import JSONValue

/// The control-socket line of one enroll step: `{"progress":…,"status":…,"step":…}` plus the
/// step's values (`capture`, `of`, `reason`, `slot`, `advice`). `progress` and `status` stay the
/// worded line and fprintd's status, as a `socat` user and Home Assistant read them; `step` and
/// its values let a client that asks the person itself (the CLI's terminal, a console page, a
/// kiosk) rebuild the `EnrollProgress` and show it in its own way. `controlLine` writes it and
/// `init(controlLine:)` reads it, so the service and its clients cannot drift apart.
extension EnrollProgress {
    /// The line the service sends for this step, before its final reply.
    public var controlLine: [String: JSONValue] {
        var line: [String: JSONValue] = ["progress": .string(description), "status": .string(status), "step": .string(stepName)]
        switch self {
        case .placeFinger(let capture, let total), .stagePassed(let capture, let total):
            line["capture"] = JSONValue(capture)
            line["of"] = JSONValue(total)
        case .liftFinger:
            break
        case .retryScan(let capture, let reason):
            line["capture"] = JSONValue(capture)
            line["reason"] = .string(reason)
        case .storing(let slot):
            line["slot"] = JSONValue(slot)
        case .adjustFinger(let advice):
            line["advice"] = .string(advice)
        case .touchQuality(let capture, let score):
            line["capture"] = JSONValue(capture)
            line["quality"] = JSONValue(score)
        case .touchesMatchedNoOther(let touches):
            line["touches"] = .array(touches.map { JSONValue($0) })
        }
        return line
    }

    /// The step a progress line stands for; nil for a line without `step` (an older service) or
    /// with a step or value this client does not know, which the caller shows as worded.
    public init?(controlLine line: [String: JSONValue]) {
        func count(_ key: String) -> Int? {
            guard let value = line[key]?.intValue, (0...10_000).contains(value) else { return nil }
            return value
        }
        switch line["step"]?.stringValue {
        case "place-finger":
            guard let capture = count("capture"), let total = count("of") else { return nil }
            self = .placeFinger(capture: capture, of: total)
        case "stage-passed":
            guard let capture = count("capture"), let total = count("of") else { return nil }
            self = .stagePassed(capture: capture, of: total)
        case "lift-finger":
            self = .liftFinger
        case "retry-scan":
            guard let capture = count("capture"), let reason = line["reason"]?.stringValue else { return nil }
            self = .retryScan(capture: capture, reason: reason)
        case "storing":
            guard let slot = count("slot") else { return nil }
            self = .storing(slot: slot)
        case "adjust-finger":
            guard let advice = line["advice"]?.stringValue else { return nil }
            self = .adjustFinger(advice: advice)
        case "touch-quality":
            guard let capture = count("capture"), let score = line["quality"]?.intValue, (0...100).contains(score) else { return nil }
            self = .touchQuality(capture: capture, score: score)
        case "touches-matched-no-other":
            // At most as many touches as an enrollment can take, each numbered as a capture is.
            guard let listed = line["touches"]?.arrayValue, (1...64).contains(listed.count) else { return nil }
            let touches = listed.compactMap { $0.intValue }.filter { (1...10_000).contains($0) }
            guard touches.count == listed.count else { return nil }
            self = .touchesMatchedNoOther(touches: touches)
        default:
            return nil
        }
    }

    /// The step's name on the wire: stable words, not Swift's case names.
    var stepName: String {
        switch self {
        case .placeFinger: "place-finger"
        case .stagePassed: "stage-passed"
        case .liftFinger: "lift-finger"
        case .retryScan: "retry-scan"
        case .storing: "storing"
        case .adjustFinger: "adjust-finger"
        case .touchQuality: "touch-quality"
        case .touchesMatchedNoOther: "touches-matched-no-other"
        }
    }
}
