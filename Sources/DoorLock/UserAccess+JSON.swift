import AccessPolicy
import JSONValue

extension UserAccess {
    /// The `access` object of the control socket's `list` reply and `fpmod list --json`: only
    /// the rules the user has (`schedule`, `validFrom`/`validUntil` in UTC seconds, `usesLeft`).
    public var jsonValue: JSONValue {
        var object: [String: JSONValue] = [:]
        if let schedule { object["schedule"] = .string(schedule) }
        if let validFrom { object["validFrom"] = .int(validFrom) }
        if let validUntil { object["validUntil"] = .int(validUntil) }
        if let usesLeft { object["usesLeft"] = .int(Int64(usesLeft)) }
        return .object(object)
    }

    /// Read back from such an object (absent: no rules).
    public init(json value: JSONValue?) {
        self.init(schedule: value?["schedule"]?.stringValue, validFrom: value?["validFrom"]?.intValue.map(Int64.init),
                  validUntil: value?["validUntil"]?.intValue.map(Int64.init), usesLeft: value?["usesLeft"]?.intValue)
    }
}
