import AccessPolicy
import TemplateStore

/// Who may enter when, as the store says: the schedules, holidays and users' rules, read into
/// the policy before a decision whenever another program (`fpmod schedule`, `fpmod user set`,
/// a restore) committed to the store since they were last read. Unreadable, they deny every
/// credential with the reason (fail closed); the exit button still opens.
extension LockRuntime {
    func refreshAccessRulesIfChanged() {
        let version: Int64
        do { version = try store.dataVersion() } catch {
            setAccessRules(nil, unreadable: "the store cannot say whether the rules changed (\(error))", version: nil)
            return
        }
        guard version != accessRulesVersion || policy.access == nil else { return }
        do {
            var rules = try store.accessRules(timeZone: config.doorTimeZone)
            if let name = config.access.passageSchedule {
                rules.passageName = name
                // A passage schedule the store lacks (or cannot read) holds nothing open.
                rules.passage = rules.calendar.schedules[name] ?? .never(because: "no readable schedule \"\(name)\" in the store")
                if rules.calendar.schedules[name] == nil, passageProblemSaid != name {
                    log("access.passageSchedule: the store has no readable schedule \"\(name)\"; passage will not hold the door open (fpmod schedule add \(name) TEXT)")
                    passageProblemSaid = name
                }
            }
            setAccessRules(rules, unreadable: nil, version: version)
        } catch {
            setAccessRules(nil, unreadable: "the store's access rules cannot be read (\(error))", version: nil)
        }
    }

    /// Reads the rules again at the next decision (after a config reload: another time zone).
    func forgetAccessRules() {
        accessRulesVersion = nil
        policy.access = nil
    }

    private func setAccessRules(_ rules: AccessRules?, unreadable: String?, version: Int64?) {
        accessRulesVersion = version
        if let rules {
            if accessRulesProblem != nil { log("access rules readable again") }
            accessRulesProblem = nil
            policy.access = rules
            return
        }
        let reason = unreadable ?? "unknown"
        if accessRulesProblem != reason {
            log("access rules unreadable: \(reason); every credential is refused until they can be read")
            emit(LockEvent(name: "error", fields: ["reason": "access rules unreadable: \(reason)"]))
        }
        accessRulesProblem = reason
        policy.access = AccessRules(unreadable: reason)
    }

    /// `.consumeUse`: takes one of the user's limited uses in the store, in one statement, so
    /// two doors on one store can never both take the last. False: none was left (or the store
    /// failed: then no use is known to be left either), and the grant must be withdrawn.
    func takeUse(of user: String) -> Bool {
        do { return try store.consumeUse(user: user) } catch {
            log("a use of \(config.privacy.log.show(user) ?? "a user") could not be taken: \(config.privacy.log.redact(String(describing: error), name: user)); refused")
            return false
        }
    }
}
