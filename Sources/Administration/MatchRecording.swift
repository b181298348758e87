import TemplateStore

/// What every reader does with the slot its search found: the store says whose finger it is,
/// and the outcome goes into the audit log in one form, whichever device matched. Shared so a
/// module and an image sensor can never disagree on what a slot means or how a decision is kept.
public enum MatchRecording {
    /// Turns a slot into a person; a slot the store does not know (or whose user is gone) is a
    /// tamper finding, never a match.
    public static func resolve(slot: Int, score: Int, times: StageTimes, in store: TemplateStore) throws -> MatchOutcome {
        guard let finger = try store.finger(atSlot: slot), let owner = try store.user(named: finger.user) else {
            return .tamper(unknownSlot: slot, score: score)
        }
        return .match(MatchFound(user: owner.name, displayName: owner.displayName, role: owner.role,
                                 label: finger.label, slot: slot, score: score, times: times))
    }

    /// Writes the outcome's audit row and returns it. `user` set: a verify of that user.
    /// `matchedBy` names the matcher in a tamper row ("the module", "the host matcher");
    /// `reason` says why a capture was poor, when the reader knows more than the code.
    @discardableResult
    public static func audited(_ outcome: MatchOutcome, user: String?, matchedBy: String, reason: String? = nil,
                               in store: TemplateStore) throws -> MatchOutcome {
        let kind = user == nil ? "identify" : "verify"
        switch outcome {
        case .match(let found):
            try store.appendAudit(event: "\(kind)-match", user: found.user, slot: found.slot, score: found.score,
                                  latencyJSON: found.times.json, detail: found.label)
        case .noMatch(let times):
            try store.appendAudit(event: "\(kind)-no-match", user: user, latencyJSON: times.json)
        case .tamper(let slot, let score):
            try store.appendAudit(event: "tamper", slot: slot, score: score,
                                  detail: "\(matchedBy) matched slot \(slot), which the store does not know")
        case .poorImage(let code):
            try store.appendAudit(event: "\(kind)-retry-scan", user: user,
                                  detail: "capture code 0x\(String(code.rawValue, radix: 16))" + (reason.map { " (\($0))" } ?? ""))
        case .noFinger, .nothingEnrolled:
            break
        }
        return outcome
    }

    /// The fingers a delete removes: the one labelled `label`, or (nil) all of the user's.
    public static func fingersToDelete(of user: String, label: String?, in store: TemplateStore) throws -> [Finger] {
        let fingers = try store.fingers(of: user)
        guard let label else { return fingers }
        guard let finger = fingers.first(where: { $0.label == label }) else {
            throw AdministrationError.unknownFinger(user: user, label: label)
        }
        return [finger]
    }
}
