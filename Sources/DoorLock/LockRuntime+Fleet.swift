import AccessPolicy
import Foundation

/// A fleet door whose hub has gone silent: after `fleet.staleAfterMinutes` without an answer the
/// alarm is raised (the log, an `error` event) and `fleet.whenStale` applies to every decision
/// until the hub answers again; checked before each decision and every 5 seconds.
extension LockRuntime {
    func checkHubSilence() {
        acceptEnrolledSetFromHub()
        acceptDoorModeFromHub()
        guard let lastContact = options.hubLastContact else { return }
        // Often enough that a door mode the hub set (a lockdown) takes effect within seconds at an idle door.
        hubSilenceCheckAt = .now + .seconds(5)
        let silence = lastContact().map { Date().timeIntervalSince($0) / 60 } ?? 0
        let limit = config.fleet.staleAfterMinutes
        let stale = silence >= Double(limit) ? StaleFleet(mode: config.fleet.whenStale, minutes: Int(silence)) : nil
        if let stale, hubSilence == nil {
            let consequence = switch stale.mode {
            case .keep: "the door decides from its store as ever (fleet.whenStale keep)"
            case .adminsOnly: "only admins are let in until it does (fleet.whenStale admins-only)"
            case .locked: "no credential opens the door until it does (fleet.whenStale locked)"
            }
            log("fleet: no answer from the hub for \(stale.minutes) min (fleet.staleAfterMinutes \(limit)); \(consequence)")
            emit(LockEvent(name: "error", fields: ["reason": "fleet hub silent for \(stale.minutes) min", "mode": stale.mode.rawValue]))
        } else if stale == nil, hubSilence != nil {
            log("fleet: the hub answers again; the door decides as before")
        }
        hubSilence = stale
        // The rules are read again whenever the store changes: the silence goes on them each time.
        if policy.access != nil { policy.access?.staleFleet = stale?.mode == .keep ? nil : stale }
    }

    /// A finger that came from the hub (or a user the hub removed) changed the enrolled set: the
    /// hub authorised it, so it is recorded without the PIN a local change asks for — but only
    /// when the store holds exactly the set the follower saw after its sync.
    func acceptEnrolledSetFromHub() {
        guard let digest = options.hubEnrolledSet?(), digest != hubEnrolledSetSeen else { return }
        hubEnrolledSetSeen = digest
        // A module's flash follows the store's new set (`WorkerLoop.settleFleetTemplates`).
        worker?.submit(.upkeep)
        guard (try? store.enrolledSetDigest()) == digest else { return }
        decide(.enrolledSetFromHub(digest: digest))
    }

    /// The hub set this door's mode: put into effect once for that revision, as an admin's
    /// command would be (audited as set by the fleet hub). The revision put into effect is kept
    /// in the store, so a restart does not undo a local change made after it.
    func acceptDoorModeFromHub() {
        guard let set = options.hubDoorMode?(), set.revision != hubDoorModeSeen else { return }
        hubDoorModeSeen = set.revision
        guard let mode = DoorMode(rawValue: set.mode) else { return }
        do {
            guard try store.hubDoorModeApplied() < set.revision else { return }
            try store.setHubDoorModeApplied(set.revision)
        } catch {
            log("fleet: the door mode the hub set (\(set.mode)) could not be recorded: \(error); not applied")
            return
        }
        decide(.setDoorMode(mode, source: .local, by: "the fleet hub", isAdmin: true))
    }
}
