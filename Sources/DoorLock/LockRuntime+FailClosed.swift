import AccessPolicy
import Foundation
import TemplateStore

/// The store reads on the way to a decision. Each failure becomes a refusal or a "PIN
/// required" with a reason (architecture.md, "Fail closed"), never a default that opens,
/// resets a counter or forgets a lockout.
extension LockRuntime {
    /// Restores the saved policy state. Returns why it could not be (nil: restored, or none
    /// was ever saved); the caller then starts with a PIN required instead of a fresh state
    /// that would forget an active lockout.
    func restorePolicyState() -> String? {
        let json: String?
        do { json = try store.value(forKey: LockService.policyStateKey) } catch {
            return "the store could not read it (\(error))"
        }
        guard let json else { return nil }
        do {
            state = try JSONDecoder().decode(PolicyState.self, from: Data(json.utf8))
            return nil
        } catch {
            return "the saved state is corrupt (\(error))"
        }
    }

    /// The enrolled-set digest after a start or an admin change. Unreadable, the change (and
    /// the PIN it requires) cannot be ruled out, so a PIN is required.
    func refreshEnrolledSet() {
        do { decide(.enrolledSetChanged(digest: try store.enrolledSetDigest())) } catch {
            log("enrolled-set digest unreadable: \(error); requiring a PIN")
            decide(.savedStateUnreadable("the enrolled-set digest is unreadable (\(error))"))
        }
    }

    /// The policy event for a match on `slot`: a user's finger, tamper when the store knows
    /// no such slot, or a refusal when the store fails (neither a match nor tamper).
    func matchEvent(slot: Int, score: Int, context: inout DecisionContext) -> PolicyEvent {
        let finger: Finger?
        let user: User?
        do {
            finger = try store.finger(atSlot: slot)
            user = try finger.flatMap { try store.user(named: $0.user) }
        } catch {
            return .matchUnresolved(slot: slot, problem: "store: \(error)")
        }
        guard let finger else {
            if (try? store.slotsLeavingModule().contains(slot)) == true {
                return .matchUnresolved(slot: slot, problem: "its finger was removed (its user was removed at the fleet hub) and is being deleted from the module")
            }
            return .moduleTamper(.unknownSlot(slot))
        }
        guard let user else {
            return .matchUnresolved(slot: slot, problem: "the store has slot \(slot) for '\(finger.user)' but no such user; run fpmod sync")
        }
        context.user = finger.user
        return .fingerMatched(user: finger.user, slot: slot, score: score, isAdmin: user.role == .admin,
                              isDuress: finger.isDuress, fingerprintUnlockEnabled: user.fingerprintUnlock,
                              verifyMode: user.verifyMode.flatMap(VerifyMode.init(rawValue:)))
    }

    /// The inputs' levels at start. An unreadable tamper switch counts as open (fail closed);
    /// an unreadable door contact stays "unknown"; an unreadable touch line leaves touch armed.
    func readInitialInputs() {
        if let door = inputs[.doorContact] {
            do { decide(try door.value() ? .doorOpened : .doorClosed) } catch { log("door contact unreadable at start: \(error)") }
        }
        if let tamper = inputs[.tamper] {
            let open: Bool
            do { open = try tamper.value() } catch {
                log("tamper switch unreadable at start: \(error); treating it as open")
                open = true
            }
            if open { decide(.tamper(active: true)) }
        }
        do { touchArmed = !(try inputs[.touch]?.value() ?? false) } catch {
            log("touch line unreadable at start: \(error)")
            touchArmed = true
        }
    }
}
