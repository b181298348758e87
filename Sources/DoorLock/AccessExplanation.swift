import AccessPolicy
import Foundation
import TemplateStore

/// "Would NAME be let in then, and which rule decides": the question every admin asks when
/// someone cannot get in, answered by the rules the service itself applies (the store's
/// schedules, holidays and the user's own rules, read by `TemplateStore.accessRules` and judged
/// by `AccessRules.verdict`, as `LockRuntime` does before every grant). Shared by
/// `fpmod access explain` and every front end to come.
public struct AccessExplanation: Sendable, Equatable {
    public var user: String
    /// The moment asked about, UTC seconds, and the door's wall clock then.
    public var utcSeconds: Int64
    public var local: LocalTime
    public var timeZone: String
    public var verdict: AccessVerdict
    /// The door's mode now (the service's saved state), when it keeps this user out whatever
    /// the time: lockdown for anyone but an admin.
    public var lockdown = false

    public var allowed: Bool { verdict.isAllowed && !lockdown }

    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// `alice at 2026-12-08 09:30 Europe/Berlin (Tuesday): would be let in, by schedule "cleaning" (tue 08:00-12:00)`.
    public var sentence: String {
        let when = "\(local) \(timeZone) (\(Self.weekdays[local.weekday]))"
        if lockdown, verdict.isAllowed {
            return "\(user) at \(when): would NOT be let in: the door is in lockdown now, and \(user) is no admin (their own rules would allow it)"
        }
        switch verdict {
        case .allowed(let rule): return "\(user) at \(when): would be let in, by \(rule)"
        case .denied(let denial): return "\(user) at \(when): would NOT be let in: \(denial) (the door shows only \"not now\")"
        }
    }

    /// Explains `user` at `utcSeconds` with the store's rules in `timeZone`.
    public static func explain(user: String, atUTC utcSeconds: Int64, store: TemplateStore,
                               timeZone: TimeZoneRules) throws -> AccessExplanation {
        guard let record = try store.user(named: user) else { throw StoreError.unknownUser(user) }
        let rules = try store.accessRules(timeZone: timeZone)
        var explanation = AccessExplanation(user: user, utcSeconds: utcSeconds, local: timeZone.localTime(atUTC: utcSeconds),
                                            timeZone: timeZone.name, verdict: rules.verdict(for: user, atWall: Double(utcSeconds)))
        // The mode is the service's state; a state that cannot be read says nothing here (the
        // service itself then requires a PIN, see LockRuntime.restorePolicyState).
        if let json = try store.value(forKey: LockService.policyStateKey),
           let state = try? JSONDecoder().decode(PolicyState.self, from: Data(json.utf8)) {
            explanation.lockdown = state.doorMode == .lockdown && record.role != .admin
        }
        return explanation
    }
}
