import AccessPolicy
import Foundation
import GPIO
import Posix
import PrintableText
import TemplateStore

/// What a decision is about, for the audit row, the events and the hooks.
struct DecisionContext {
    var timing: ScanTiming?
    var user: String?
    var slot: Int?
    var score: Int?
    /// The reader the credential came from (nil: none of the door's, e.g. the control socket):
    /// its side of the door decides anti-passback (`access.exitReaders`).
    var reader: LockConfig.DoorReader?
}

extension LockRuntime {
    /// Runs the policy on `event` and executes its effects: actuators first (so the relay is
    /// not kept waiting by the audit write), then audit, events, hooks and persistence.
    @discardableResult
    func decide(_ event: PolicyEvent, context: DecisionContext = DecisionContext()) -> [PolicyEffect] {
        refreshAccessRulesIfChanged()
        checkHubSilence()
        let side: ReaderSide = context.reader.map { config.access.exitReaders.contains($0) ? .exit : .entry } ?? .entry
        let (next, decided) = policy.decide(state, event, now: clock.now(), side: side)
        state = next
        var effects = decided
        // A limited use is taken before anything of the grant happens; none left (another door
        // took the last), the rest of this decision is dropped and the policy withdraws it.
        if let index = decided.firstIndex(where: { if case .consumeUse = $0 { true } else { false } }),
           case .consumeUse(let user) = decided[index], !takeUse(of: user) {
            effects = Array(decided[..<index])
            if decided[index...].contains(.persist) { effects.append(.persist) }
            return apply(effects, context) + self.decide(.useRefused(user: user), context: context)
        }
        return apply(effects, context)
    }

    private func apply(_ effects: [PolicyEffect], _ context: DecisionContext) -> [PolicyEffect] {
        var context = context
        if context.timing != nil { context.timing?.decision = Monotonic.nanoseconds() }
        for effect in effects {
            switch effect {
            case .unlock(let reason, let user, _):
                setRelay(true)
                if let user { sendToPanel(after: reason, user: user) }
                if context.timing != nil { context.timing?.relayOn = Monotonic.nanoseconds() }
                relayOffAt = nil
            case .relayPulse(let seconds):
                relayOffAt = .now + .milliseconds(Int64(seconds * 1000))
            case .lock:
                setRelay(false)
                relayOffAt = nil
            case .led(let pattern):
                showLED(pattern, revert: pattern == .match || pattern == .deny)
            case .buzzer(let pattern):
                sound(pattern)
            default:
                break
            }
        }
        for effect in effects { record(effect, context) }
        return effects
    }

    private func record(_ effect: PolicyEffect, _ context: DecisionContext) {
        switch effect {
        case let .unlock(reason, user, _):
            runHook(config.hooks.onUnlock, event: "unlock", user: user, slot: context.slot, extra: ["FPMOD_REASON": reason.rawValue])
        case .deny(let reason):
            runHook(config.hooks.onDeny, event: "deny", user: context.user, slot: context.slot, extra: ["FPMOD_REASON": reason.description])
        case let .audit(name, user, detail):
            // The one log line for a wall-clock step (the event carries both clocks).
            if name == "wall-clock-stepped" { log(detail) }
            let scanRow = context.timing != nil
            writeAudit(AuditBacklog.Record(event: name, user: user, slot: scanRow ? context.slot : nil, score: scanRow ? context.score : nil,
                                           latencyJSON: context.timing?.json, detail: detail, time: Date()))
        case let .event(name, fields):
            emit(LockEvent(name: name, fields: fields, timing: context.timing))
            if name == "lockout" || name == "lockout-permanent" {
                runHook(config.hooks.onLockout, event: name, user: nil, slot: nil, extra: [:])
            }
        case .alarm(let kind):
            runHook(config.hooks.onAlarm, event: "alarm", user: nil, slot: nil, extra: ["FPMOD_ALARM": kind.rawValue])
        case .duressAlarm(let user):
            // Silent: no public event, LED or buzzer; only the hook, the audit log and the observer.
            runHook(config.hooks.onDuress, event: "duress", user: user, slot: context.slot, extra: [:])
            writeAudit(AuditBacklog.Record(event: "duress", user: user, slot: context.slot, score: context.score,
                                           latencyJSON: context.timing?.json, detail: "duress finger used", time: Date()))
            emit(LockEvent(name: "duress", fields: ["user": user], timing: context.timing, isPublic: false))
        case let .setFingerprintUnlock(user, enabled):
            // Not silent: the policy already announced the change, so a failed write says so.
            do { try store.setFingerprintUnlock(enabled, for: user) } catch {
                let shown = config.privacy.log.show(user) ?? "a user"
                log("fingerprint unlock for \(shown) NOT changed: \(config.privacy.log.redact(String(describing: error), name: user))")
                emit(LockEvent(name: "error", fields: ["user": user, "reason": "fingerprint unlock not changed: \(error)"]))
            }
        case .persist:
            do {
                let json = String(decoding: try JSONEncoder().encode(state), as: UTF8.self)
                try store.setValue(json, forKey: LockService.policyStateKey)
            } catch { log("policy state not saved: \(error)") }
        default:
            break
        }
    }

    /// Publishes the snapshot first, so whoever sees the event also sees the state behind it
    /// (`relayOn` true by the time "unlocked" arrives).
    func emit(_ event: LockEvent) {
        if event.isPublic { events?.publish(event.shown(config.privacy.eventSocket).jsonLine) }
        front.shared.withLock { snapshot in
            snapshot.relayOn = relayOn
            snapshot.scanInFlight = moduleBusy
            snapshot.moduleConnected = moduleConnected
            snapshot.policy = state
            snapshot.eventCount += 1
        }
        onEvent?(event)
        observeForHomeAssistant(event)
    }

    func setRelay(_ on: Bool) {
        relayOn = on
        do { try outputs[.relay]?.set(on) } catch { log("relay: \(error)") }
    }

    func showLED(_ pattern: LedPattern, revert: Bool) {
        if usesAura {
            worker?.submit(.aura(pattern))
        } else {
            // Feedback only: a failed LED write changes no decision, so it is logged, not raised.
            do {
                try outputs[.ledGreen]?.set(pattern == .match)
                try outputs[.ledRed]?.set(pattern == .deny || pattern == .lockout)
            } catch { log("LED: \(error)") }
        }
        ledRevertAt = revert ? .now + options.feedbackDuration : (pattern == .idle ? nil : ledRevertAt)
        if pattern == .lockout { ledRevertAt = nil }
    }

    func sound(_ pattern: BuzzerPattern) {
        guard let buzzer = outputs[.buzzer] else { return }
        let length: Duration = switch pattern {
        case .accept: .milliseconds(120)
        case .deny: .milliseconds(400)
        case .retry: .milliseconds(60)
        case .lockout: .seconds(1)
        }
        do { try buzzer.set(true) } catch { log("buzzer: \(error)") }
        buzzerOffAt = .now + length
    }

    func runHook(_ argv: [String]?, event: String, user: String?, slot: Int?, extra: [String: String]) {
        guard let argv, !argv.isEmpty else { return }
        var environment = extra
        environment["FPMOD_EVENT"] = event
        // A hook's output usually ends up on a terminal or in the journal: a stored name with a
        // control character arrives escaped (a valid name never changes).
        environment["FPMOD_USER"] = user.map { Printable.escaped($0) } ?? ""
        environment["FPMOD_SLOT"] = slot.map(String.init) ?? ""
        hooks.spawn(argv, environment: environment)
    }

    /// A hook whose program is missing would otherwise only show at the first unlock, as a
    /// failed spawn. It is not a reason to keep the door from working, so it is a warning:
    /// logged at start and reload, and in `status` (checked again there, so a program
    /// installed later clears it without a reload).
    func checkConfigAtRuntime() {
        for warning in config.hookProblems() { log("config: \(warning) (that hook will not run)") }
    }

    /// SIGHUP: a valid new config replaces the policy, hooks and LEDs; an invalid one is refused
    /// and the old one kept. Lines, sockets and the port change only with a restart.
    func reloadConfiguration() {
        guard let configLoader else { return }
        do {
            let fresh = try configLoader()
            let restart = config.restartNeeded(toApply: fresh)
            let previousMQTT = config.mqtt
            config = fresh
            policy = AccessPolicy(config: fresh.policy)
            forgetAccessRules()
            if fresh.mqtt != previousMQTT { restartHomeAssistant() } else { homeAssistant?.privacy = fresh.privacy.mqtt }
            var fields: [String: String] = [:]
            if !restart.isEmpty { fields["restartNeededFor"] = restart.joined(separator: ",") }
            emit(LockEvent(name: "config-reloaded", fields: fields))
            log("configuration reloaded" + (restart.isEmpty ? "" : "; restart to apply changes to " + restart.joined(separator: ", ")))
            checkConfigAtRuntime()
        } catch {
            emit(LockEvent(name: "config-invalid", fields: ["reason": String(describing: error)]))
            log("configuration NOT reloaded, keeping the running one: \(error)")
        }
    }
}

extension LockRuntime {
    /// Writes one audit record, after any the store refused earlier (order is kept). When the
    /// store refuses, the record is kept in memory (`AuditBacklog`) and the service says once
    /// that records cannot be written; the decision it records stands either way.
    func writeAudit(_ record: AuditBacklog.Record) {
        flushAuditBacklog()
        if auditBacklog.isEmpty {
            do {
                try appendAudit(record)
                return
            } catch {
                keepAudit(record, failure: "\(error)")
            }
        } else {
            keepAudit(record, failure: auditBacklog.failure ?? "the store refused an earlier record")
        }
    }

    private func appendAudit(_ record: AuditBacklog.Record) throws {
        try store.appendAudit(event: record.event, user: record.user, slot: record.slot, score: record.score,
                              latencyJSON: record.latencyJSON, detail: record.detail, time: record.time)
    }

    private func keepAudit(_ record: AuditBacklog.Record, failure: String) {
        guard auditBacklog.keep(record, failure: failure) else { return }
        log("audit records cannot be written: \(failure); the door keeps deciding, and up to \(auditBacklog.capacity) records wait in memory until the store takes them")
        emit(LockEvent(name: "records-unwritable", fields: ["reason": failure]))
    }

    /// Tries to write what the store refused before (at every record and every timer tick).
    func flushAuditBacklog() {
        switch auditBacklog.flush({ try appendAudit($0) }) {
        case .nothing, .stillFailing:
            return
        case .written(let count, let lost):
            let lostText = lost > 0 ? "; \(lost) were not kept (a records-lost record says so)" : ""
            log("audit records are written again: \(count) kept in memory written\(lostText)")
            emit(LockEvent(name: "records-writable", fields: ["written": String(count), "lost": String(lost)]))
        }
    }
}
