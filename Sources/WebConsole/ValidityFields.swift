import AccessPolicy

extension JSONBody {
    /// A card's own dates from `validFrom` and `validUntil`, as `fpmod card validity` takes them,
    /// on `zone`'s clock: a side left out, null or empty has no bound. Read and checked whole
    /// before any write, by the door's console and the fleet's alike.
    func validityBounds(in zone: TimeZoneRules) throws(ConsoleFailure) -> (from: Int64?, until: Int64?) {
        func bound(_ key: String, endOfDay: Bool) throws(ConsoleFailure) -> Int64? {
            guard let text = try optionalString(key), !text.isEmpty else { return nil }
            guard text.utf8.count <= 32, let moment = ValidityBounds.moment(text, in: zone, endOfDay: endOfDay) else {
                throw ConsoleFailure.badRequest("\"\(key)\" is not a day or time.",
                                                fix: "Write \(ValidityBounds.howToWrite(in: zone)), or leave it out (null) for no bound on that side.")
            }
            return moment
        }
        let from = try bound("validFrom", endOfDay: false), until = try bound("validUntil", endOfDay: true)
        if let from, let until, until <= from {
            throw ConsoleFailure.badRequest("\"validUntil\" is not after \"validFrom\"; the card could never open.",
                                            fix: "Give an end after the start, or leave one side out.")
        }
        return (from, until)
    }
}
