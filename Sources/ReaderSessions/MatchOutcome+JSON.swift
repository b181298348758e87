import Administration
import JSONValue
import TemplateStore

/// A match outcome as `--json` and every other front end show it: the result's event name, who
/// and where for a match, and the stage times.
extension MatchOutcome {
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = ["result": .string(event)]
        switch self {
        case .match(let found):
            object["user"] = .string(found.user)
            object["displayName"] = .string(found.displayName)
            object["finger"] = .string(found.label)
            object["slot"] = .int(Int64(found.slot))
            object["score"] = .int(Int64(found.score))
            object["times"] = found.times.jsonValue
        case .noMatch(let times):
            object["times"] = times.jsonValue
        case .tamper(let slot, let score):
            object["slot"] = .int(Int64(slot))
            object["score"] = .int(Int64(score))
        case .poorImage(let code):
            object["code"] = .int(Int64(code.rawValue))
        case .noFinger, .nothingEnrolled:
            break
        }
        return .object(object)
    }
}

extension StageTimes {
    public var jsonValue: JSONValue {
        ["captureMs": .double(captureMilliseconds), "extractMs": .double(extractMilliseconds), "searchMs": .double(searchMilliseconds)]
    }
}

extension Array where Element == RepairAction {
    /// What a repair changed, one sentence each.
    public var jsonValue: JSONValue { .array(map { .string($0.description) }) }
}
