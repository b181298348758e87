import AccessPolicy
import Administration
import Foundation
import JSONValue
import Glibc
import Posix
import TemplateStore

/// The control socket: one command per line, one JSON reply line each — except `enroll`, which
/// first sends a `{"progress":…,"status":…}` line per step and then its `{"ok":…}` line.
/// Every final reply has an `ok` key; a client reads until it sees one.
/// `status` · `pin [USER] PIN` · `unlock ADMIN PIN` · `clear ADMIN PIN` · `clear` (root on
/// this machine only: the peer's uid from `SO_PEERCRED`) · `scan` · `list` ·
/// `enroll NAME [LABEL] [--admin] [--duress] …` (see `EnrollRequest.controlLine`) · `delete NAME [LABEL]`
extension LockRuntime {
    func acceptClients() {
        while let connection = try? control.accept(deadline: .now) {
            clients.append(connection)
        }
    }

    func serviceClient(_ client: UnixConnection) {
        // Polled for hang-up only since it finished sending: the peer is gone altogether.
        if closingClients.contains(ObjectIdentifier(client)) { return dropClient(client) }
        while true {
            let line: String?
            do { line = try client.readLine(deadline: .now) } catch {
                dropClient(client)
                return
            }
            guard let line else { break }
            handleCommand(line, from: client)
        }
        guard client.isClosedByPeer else { return }
        // A one-shot client (`socat`, `nc -N`) shuts down its sending side after its line and
        // reads until the server closes: a PIN check or an enroll still running is answered
        // first. Only a full hang-up (`closingClients`: poll's POLLHUP) drops it unanswered.
        if awaitsAnswer(client) {
            closingClients.insert(ObjectIdentifier(client))
        } else {
            dropClient(client)
        }
    }

    func awaitsAnswer(_ client: UnixConnection) -> Bool {
        pendingReplies.values.contains { $0 === client }
    }

    /// After a final reply: a client that is done sending is closed once nothing more is owed.
    func closeIfAnswered(_ client: UnixConnection) {
        if closingClients.contains(ObjectIdentifier(client)), !awaitsAnswer(client) { dropClient(client) }
    }

    func dropClient(_ client: UnixConnection) {
        client.close()
        closingClients.remove(ObjectIdentifier(client))
        clients.removeAll { $0 === client }
        for (id, waiting) in pendingReplies where waiting === client {
            pendingReplies[id] = nil
            // An enroll nobody waits for any more must not keep the module busy.
            worker.cancel(requestID: id)
        }
    }

    func reply(_ client: UnixConnection, _ object: [String: JSONValue]) {
        do { try client.send(line: JSONValue.object(object).encoded, deadline: .now + .milliseconds(200)) } catch { dropClient(client) }
    }

    /// `code` says what kind of refusal it is, so a client can pick its exit status:
    /// `usage`, `busy` (retry later), `unavailable` (no module), `denied`, `refused` (bad data), `failed`.
    /// Why an administrative write is refused while the store refuses audit records.
    func storeRefusing(_ failure: String, what: String) -> String {
        "cannot \(what) now: the store cannot be written (\(failure)); the door keeps deciding. Free space, then \(what) again"
    }

    func replyError(_ client: UnixConnection, _ message: String, code: String = "usage") {
        reply(client, ["ok": false, "error": .string(message), "code": .string(code)])
    }

    /// The policy's refusal as a reply.
    func replyDenied(_ client: UnixConnection, _ reason: DenyReason) {
        reply(client, ["ok": false, "result": "denied", "reason": .string(reason.description)])
    }

    func handleCommand(_ line: String, from client: UnixConnection) {
        let request: ControlRequest
        do { request = try ControlRequest(line: line) } catch { return replyError(client, error.description) }
        switch request {
        case .status:
            reply(client, statusReply())
        case .scan:
            guard moduleConnected else { return replyError(client, "the fingerprint module is not connected; check the wiring and the log", code: "unavailable") }
            guard !moduleBusy else { return replyError(client, "a scan or an admin command is already running; retry when it has finished", code: "busy") }
            requestScan(edge: Monotonic.nanoseconds())
            reply(client, ["ok": true, "result": "scanning"])
        case let .pin(user, pin):
            checkPin(user: user, pin: pin, action: .unlock, client: client)
        case .card(let number):
            presentCard(number, via: "control socket", client: client)
        case let .unlock(admin, pin):
            checkPin(user: admin, pin: pin, action: .adminUnlock, client: client)
        case let .clear(admin, pin):
            checkPin(user: admin, pin: pin, action: .adminClear, client: client)
        case .clearAsRoot:
            clearAsTrustedPeer(client)
        case .list:
            reply(client, listReply())
        case .enroll(let enroll):
            // Refused before anyone places a finger: the enrollment could not be recorded.
            if let failure = auditBacklog.failure { return replyError(client, storeRefusing(failure, what: "enroll"), code: "failed") }
            submitAdmin(.enroll(enroll), client: client)
        case let .delete(user, label):
            if let failure = auditBacklog.failure { return replyError(client, storeRefusing(failure, what: "delete"), code: "failed") }
            submitAdmin(.delete(user: user, label: label), client: client)
        case .doorMode(let mode):
            setDoorMode(mode, client: client)
        }
    }

    /// `door-mode MODE`: root on this machine may set any mode (the uid is the kernel's); anyone
    /// else with the socket only modes that keep people out. Audited with who asked.
    func setDoorMode(_ mode: DoorMode, client: UnixConnection) {
        let peer: PeerCredentials
        do { peer = try client.peerCredentials() } catch {
            return replyError(client, "cannot tell who is asking (\(error))", code: "failed")
        }
        let trusted = options.trustedClearUIDs.contains(peer.uid)
        guard trusted || DoorMode.tightens(from: state.doorMode, to: mode) else {
            return replyError(client, "only root on this machine may set the door to \(mode.rawValue) (you are uid \(peer.uid)); anyone with the socket may set lockdown, or normal after passage", code: "denied")
        }
        decide(.setDoorMode(mode, source: .local, by: trusted ? "root on the control socket" : "uid \(peer.uid) on the control socket"))
        reply(client, ["ok": true, "result": "door-mode", "mode": .string(state.doorMode.rawValue), "passage": .bool(state.passageHolding)])
    }

    /// Enroll and delete run on the worker, which owns the module; they may queue behind a scan.
    func submitAdmin(_ request: AdminRequest, client: UnixConnection) {
        guard moduleConnected else { return replyError(client, "the fingerprint module is not connected; retry when it is", code: "unavailable") }
        guard !adminInFlight else { return replyError(client, "the module is busy with another admin command; retry in a moment", code: "busy") }
        let id = nextRequestID
        nextRequestID += 1
        pendingReplies[id] = client
        adminInFlight = true
        worker.submit(.admin(requestID: id, request))
    }

    /// Users and their fingers from the store (no module command needed). Names stay strings
    /// whatever they spell ("true", "null").
    func listReply() -> [String: JSONValue] {
        do {
            let users = try store.users().map { user -> JSONValue in
                let fingers = try store.fingers(of: user.name).map { finger -> JSONValue in
                    ["label": .string(finger.label), "slot": JSONValue(finger.slot), "duress": .bool(finger.isDuress)]
                }
                return ["name": .string(user.name), "displayName": .string(user.displayName), "role": .string(user.role.rawValue),
                        "fingerprintUnlock": .bool(user.fingerprintUnlock), "hasPIN": .bool(user.hasPIN), "fingers": .array(fingers),
                        "access": try store.access(of: user.name).jsonValue]
            }
            return ["ok": true, "users": .array(users)]
        } catch {
            return ["ok": false, "error": .string("store: \(error)"), "code": "failed"]
        }
    }

    func statusReply() -> [String: JSONValue] {
        let status = state.status(at: clock.now(), config: policy.config)
        var reply: [String: JSONValue] = ["ok": true]
        switch status.fingerprintLockout {
        case .none: reply["fingerprintLockout"] = "none"
        case .timed(let remaining):
            reply["fingerprintLockout"] = "timed"
            reply["lockoutRemainingSeconds"] = .double(remaining.rounded(.up))
        case .permanent: reply["fingerprintLockout"] = "permanent"
        }
        // The PIN's own lockout, for a keypad or a lock screen that counts it down.
        switch status.pinLockout {
        case .none: reply["pinLockout"] = "none"
        case .timed(let remaining):
            reply["pinLockout"] = "timed"
            reply["pinLockoutRemainingSeconds"] = .double(remaining.rounded(.up))
        case .permanent: reply["pinLockout"] = "permanent"
        }
        reply["locked"] = .bool(!status.isUnlocked)
        reply["relay"] = .bool(relayOn)
        reply["door"] = .string(status.doorOpen.map { $0 ? "open" : "closed" } ?? "unknown")
        reply["module"] = .string(moduleConnected ? "connected" : "disconnected")
        reply["scanInFlight"] = .bool(moduleBusy)
        reply["failures"] = JSONValue(status.consecutiveFingerprintFailures)
        reply["pinFailures"] = JSONValue(status.consecutivePinFailures)
        reply["pinRequired"] = .array(status.pinRequired.map { .string($0.rawValue) })
        reply["pinOnly"] = JSONValue(status.pinOnly?.description)
        reply["tamper"] = .bool(status.tamperSwitchActive)
        reply["doorMode"] = .string(status.doorMode.rawValue)
        reply["passage"] = .bool(status.passageHolding)
        reply["events"] = JSONValue(front.shared.withLock { $0.eventCount })
        reply["pid"] = JSONValue(CurrentProcess.id)
        reply["port"] = JSONValue(options.modulePort)
        reply["store"] = .string(options.storePath ?? store.databasePath)
        reply["configWarnings"] = .array(config.hookProblems().map { .string($0) })
        reply["search"] = libraryStatus?.jsonValue ?? .null
        // Which reader, and where it matches ("… matching on the host" for an image sensor).
        reply["reader"] = readerDescription.map { .string($0.description) } ?? .null
        reply["readerKind"] = readerDescription.map { .string($0.kind.rawValue) } ?? .null
        // "ok", or why audit records cannot be written and how many wait in memory.
        reply["records"] = .string(auditBacklog.failure.map { "cannot be written: \($0)" } ?? "ok")
        reply["recordsWaiting"] = JSONValue(auditBacklog.records.count)
        reply["recordsLost"] = JSONValue(auditBacklog.lost)
        return reply
    }

    /// `clear` without a PIN: for root on this machine only, so an admin locked out of PIN
    /// entry is never stuck. The uid is the kernel's (`SO_PEERCRED`), not something the client says.
    func clearAsTrustedPeer(_ client: UnixConnection) {
        let peer: PeerCredentials
        do { peer = try client.peerCredentials() } catch {
            return replyError(client, "cannot tell who is asking (\(error)); use clear ADMIN PIN", code: "failed")
        }
        guard options.trustedClearUIDs.contains(peer.uid) else {
            return replyError(client, "clear without a PIN is only for root on this machine (you are uid \(peer.uid)); use clear ADMIN PIN, or an admin finger", code: "denied")
        }
        decide(.adminClear)
        reply(client, ["ok": true, "result": "cleared"])
    }

    /// Asks the policy first (a PIN lockout refuses before any check, so it is no oracle), then
    /// verifies off the loop (memory-hard hash); `finishPinCheck` decides on the loop.
    func checkPin(user: String?, pin: String, action: PinPurpose, client: UnixConnection) {
        let user = action == .unlock ? user ?? pendingFactorUser : user
        if let refusal = decide(.pinOffered(user: user, purpose: action)).denial {
            return replyDenied(client, refusal)
        }
        let id = nextRequestID
        guard pinChecker.submit(.init(requestID: id, action: action, user: user, pin: pin)) else {
            return replyError(client, "too many PINs are being checked; retry in a moment", code: "busy")
        }
        nextRequestID += 1
        pendingReplies[id] = client
    }

    /// One policy event for every purpose: it counts wrong PINs, refuses during a lockout that
    /// started while this check ran, and says when this PIN started a lockout.
    func finishPinCheck(_ check: LockService.PinCheck) {
        let client = pendingReplies.removeValue(forKey: check.requestID)
        defer { if let client { closeIfAnswered(client) } }
        let remote = remoteRequests.pinChecks.removeValue(forKey: check.requestID)
        if let problem = check.problem {
            if keypadChecks.removeValue(forKey: check.requestID) != nil { keypadFeedback("failed", reason: "the PIN check failed"); log("keypad: PIN check failed: \(problem)") }
            if let client { replyError(client, "PIN check failed: \(problem)", code: "failed") }
            if remote != nil { log("mqtt: remote request not done: PIN check failed: \(problem)") }
            return
        }
        let effects = decide(.pinEntered(user: check.user, correct: check.correct, isAdmin: check.isAdmin, purpose: check.action,
                                         source: remote?.source ?? .local, verifyMode: check.verifyMode),
                             context: DecisionContext(reader: keypadChecks[check.requestID] != nil ? .keypad : nil))
        if let remote { return finishRemote(remote, check: check, effects: effects) }
        if let submittedAt = keypadChecks.removeValue(forKey: check.requestID) { return finishKeypadEntry(effects, submittedAt: submittedAt) }
        guard let client else { return }
        if let denial = effects.denial {
            replyDenied(client, denial)
        } else if let next = effects.nextFactor {
            reply(client, ["ok": true, "result": "factor-needed", "next": .string(next)])
        } else if effects.contains(where: { if case .unlock = $0 { true } else { false } }) {
            var unlocked: [String: JSONValue] = ["ok": true, "result": "unlocked"]
            if let user = check.user { unlocked["user"] = .string(user) }
            reply(client, unlocked)
        } else {
            reply(client, ["ok": true, "result": .string(check.action == .adminClear ? "cleared" : "accepted")])
        }
    }
}

extension Array where Element == PolicyEffect {
    /// The factor a combination waits for, when these effects started one.
    var nextFactor: String? {
        lazy.compactMap { effect -> String? in
            if case .event("factor-needed", let fields) = effect { return fields["next"] } else { return nil }
        }.first
    }

    /// The policy's refusal among these effects, if it refused.
    var denial: DenyReason? {
        lazy.compactMap { effect -> DenyReason? in
            if case .deny(let reason) = effect { return reason } else { return nil }
        }.first
    }
}
