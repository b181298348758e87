import Administration
import DoorLock
import JSONValue
import Testing

/// An enroll step on the control socket: worded for a person and Home Assistant, and as values
/// a client rebuilds exactly (issue 23, item 3: a console's live enrollment over the socket).
struct EnrollProgressLineTests {
    static let everyStep: [EnrollProgress] = [
        .placeFinger(capture: 1, of: 3), .stagePassed(capture: 2, of: 3), .liftFinger,
        .retryScan(capture: 2, reason: "the image was too faint"), .storing(slot: 17),
        .adjustFinger(advice: "press a little higher"), .touchQuality(capture: 2, score: 74),
        .touchesMatchedNoOther(touches: [5]), .touchesMatchedNoOther(touches: [1, 3, 8]),
    ]

    @Test(arguments: everyStep)
    func aStepSurvivesTheLine(step: EnrollProgress) throws {
        let line = step.controlLine
        #expect(line["progress"] == .string(step.description))
        #expect(line["status"] == .string(step.status))
        // Through the text the socket carries and JSONValue's strict reader, as a client gets it.
        guard case .object(let read) = try JSONValue(parsing: JSONValue.object(line).encoded) else {
            Issue.record("not an object")
            return
        }
        #expect(EnrollProgress(controlLine: read) == step)
    }

    @Test func aLineWithoutAKnownStepOrItsValuesIsNoStep() {
        let worded: [String: JSONValue] = ["progress": "Place your finger (1/2)", "status": "enroll-place-finger"]
        #expect(EnrollProgress(controlLine: worded) == nil, "an older service's line is shown worded")
        var unknown = worded
        unknown["step"] = "hover-finger"
        #expect(EnrollProgress(controlLine: unknown) == nil)
        var missing = worded
        missing["step"] = "place-finger"
        missing["capture"] = 1
        #expect(EnrollProgress(controlLine: missing) == nil, "no total")
        missing["of"] = .string("2")
        #expect(EnrollProgress(controlLine: missing) == nil, "a total that is not a number")
        missing["of"] = -2
        #expect(EnrollProgress(controlLine: missing) == nil, "a negative total")
        missing["of"] = 2
        #expect(EnrollProgress(controlLine: missing) == .placeFinger(capture: 1, of: 2))
        // The touches that matched no other: a list of touch numbers, nothing else.
        var touches = worded
        touches["step"] = "touches-matched-no-other"
        for bad: JSONValue in [.array([]), .array([0]), .array([2, .string("3")]), .string("5"), .array(Array(repeating: 1, count: 65))] {
            touches["touches"] = bad
            #expect(EnrollProgress(controlLine: touches) == nil, "touches \(bad.encoded)")
        }
        touches["touches"] = .array([2, 7])
        #expect(EnrollProgress(controlLine: touches) == .touchesMatchedNoOther(touches: [2, 7]))
    }
}
