import AccessPolicy
import JSONValue
import Posix
import TemplateStore

/// Cards at the door: a number read by a Wiegand reader (or sent as `card NUMBER` on the control
/// socket) is looked up by its keyed hash and handed to the policy, which decides by the verify
/// mode: open, wait for the other factor, or refuse. The number itself is never logged or sent
/// in an event; the audit row names the card's label.
extension LockRuntime {
    /// The user a waiting first factor names: a PIN typed next is checked against theirs only.
    var pendingFactorUser: String? { state.pendingFactor?.user }

    /// The user a finger is compared with 1:1: a card of theirs waits for its finger. A card
    /// nobody has leaves the scan 1:N, and the policy refuses the pair whatever it finds.
    var oneToOneUser: String? {
        guard let pending = state.pendingFactor, pending.factor == .card, pending.mode.combines(.finger) else { return nil }
        return pending.user
    }

    /// Decides on a card; nil when the store failed (refused, and said so).
    @discardableResult
    func presentCard(_ number: CardNumber, via source: String, reader: LockConfig.DoorReader? = nil) -> [PolicyEffect]? {
        let presentation: CardPresentation
        do {
            if let (card, owner) = try store.card(matching: number) {
                presentation = CardPresentation(user: owner.name, enabled: card.enabled,
                                                userVerifyMode: owner.verifyMode.flatMap(VerifyMode.init(rawValue:)),
                                                label: "\(card.kind.rawValue) card \(card.label), via \(source)",
                                                isAdmin: owner.role == .admin, validFrom: card.validFrom, validUntil: card.validUntil)
            } else {
                presentation = CardPresentation(user: nil, enabled: false, label: "unknown \(number.kind.rawValue) card, via \(source)")
            }
        } catch {
            log("card via \(source): the store failed while looking it up (\(error)); refused, the door stays locked")
            emit(LockEvent(name: "card", fields: ["result": "failed"]))
            showLED(.deny, revert: true)
            sound(.deny)
            return nil
        }
        return decide(.cardPresented(presentation), context: DecisionContext(reader: reader))
    }

    func presentCard(_ number: CardNumber, via source: String, client: UnixConnection) {
        guard let effects = presentCard(number, via: source) else {
            return replyError(client, "the store failed while looking the card up; see the log", code: "failed")
        }
        if let denial = effects.denial { return replyDenied(client, denial) }
        if let next = effects.nextFactor { return reply(client, ["ok": true, "result": "factor-needed", "next": .string(next)]) }
        var unlocked: [String: JSONValue] = ["ok": true, "result": "unlocked"]
        for case .unlock(_, let user?, _) in effects { unlocked["user"] = .string(user) }
        reply(client, unlocked)
    }
}
