import AccessPolicy

extension JSONBody {
    /// A card's own dates (or a user's) from `validFrom` and `validUntil`, as `fpmod card
    /// validity` takes them, on `zone`'s clock: a side left out, null or empty has no bound. Read
    /// and checked whole before any write, by the door's console and the fleet's alike; `never`
    /// says what bounds that cross would mean.
    func validityBounds(in zone: TimeZoneRules, never: String = "the card could never open") throws(ConsoleFailure) -> (from: Int64?, until: Int64?) {
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
            throw ConsoleFailure.badRequest("\"validUntil\" is not after \"validFrom\"; \(never).",
                                            fix: "Give an end after the start, or leave one side out.")
        }
        return (from, until)
    }
}
