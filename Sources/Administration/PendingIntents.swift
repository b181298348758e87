import TemplateStore

/// What the next open does with the operations an interrupted (or older) fpmod left in the
/// store: the reconciliation's inputs that need the store's records, and the forecast `doctor`
/// prints without touching anything.
public enum PendingIntents {
    /// Enroll intents that can never commit, each with why: a user name, label or display name
    /// today's rules refuse (an older fpmod wrote the intent before checking them), a slot the
    /// module does not have, a user deleted since, a label the user already has. Finishing one
    /// would fail at every open, so the reconciliation abandons it instead (`abandonEnroll`).
    public static func unfinishableEnrolls(in store: TemplateStore, capacity: Int?) throws -> [Int64: String] {
        var reasons: [Int64: String] = [:]
        for intent in try store.pendingIntents() where intent.kind == .enroll {
            if let reason = try whyUnfinishable(intent, store: store, capacity: capacity) { reasons[intent.id] = reason }
        }
        return reasons
    }

    static func whyUnfinishable(_ intent: Intent, store: TemplateStore, capacity: Int?) throws -> String? {
        if let slot = intent.slot, let capacity, !(0..<capacity).contains(slot) {
            return "slot \(slot) does not exist on this module, whose slots are 0 to \(capacity - 1)"
        }
        // No name, label or template: the plan rolls it back anyway.
        guard let user = intent.user, let label = intent.label else { return nil }
        let name: UserName, fingerLabel: FingerLabel
        do {
            name = try UserName(validating: user)
            fingerLabel = try FingerLabel(validating: label)
        } catch {
            return error.summary
        }
        if try store.user(named: name.text) == nil {
            guard let record = NewUserRecord(text: try store.value(forKey: NewUserRecord.key(intent: intent.id))) else {
                return "the user \(name) no longer exists"
            }
            if let display = record.displayName {
                do { _ = try DisplayName(validating: display) } catch { return error.summary }
            }
        } else if let same = try store.fingers(of: name.text).first(where: { $0.label == fingerLabel.text }) {
            return "\(name) already has \(fingerLabel) enrolled in slot \(same.slot)"
        }
        return nil
    }

    /// One sentence: what the next open of the module will do with `intent`. `unfinishable` is
    /// its entry of `unfinishableEnrolls`. Which repair runs also depends on what the module
    /// holds, so both outcomes are named where the module decides.
    public static func forecast(_ intent: Intent, unfinishable: String?) -> String {
        let slot = intent.slot.map { "slot \($0)" } ?? "no slot"
        switch intent.kind {
        case .enroll:
            if let unfinishable {
                return "can never finish (\(unfinishable)): the next open rolls it back, erasing \(slot) from the "
                    + "module if it holds the template; the store stays as it is"
            }
            return "the next open finishes it if the module holds the template in \(slot), else rolls it back"
        case .delete:
            return "the next open finishes the delete of \(slot) in the module and the store"
        case .wipe:
            return "the next open finishes the wipe: the module is emptied and every user removed"
        case .restore:
            // A restore of one slot: a finger the fleet's hub sent, written by the service between touches.
            if intent.slot != nil { return "the module gets the finger the fleet's hub sent: the next open writes \(slot) from the store" }
            return "the next open writes every finger of the store to the module again"
        case .move:
            let target = intent.targetSlot.map { "slot \($0)" } ?? "no slot"
            return "the next open settles the move between \(slot) and \(target): kept where the module confirmed it, else put back"
        }
    }

    /// "enroll #3 of alice's right-index in slot 0, module written" (names shown escaped).
    public static func summary(_ intent: Intent) -> String {
        var text = "\(intent.kind.rawValue) #\(intent.id)"
        if let user = intent.user { text += " of " + NameError.shown(user) + (intent.label.map { "'s " + NameError.shown($0) } ?? "") }
        if let slot = intent.slot { text += " in slot \(slot)" }
        let state = switch intent.state {
        case .pending: "the module not yet confirmed"
        case .moduleWritten: "the module written"
        case .storeCommitted: "the store committed"
        }
        return text + ", " + state
    }
}
