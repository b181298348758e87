import AccessPolicy
import Foundation
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
    static let controlUsage = "commands: status, pin [USER] PIN, unlock ADMIN PIN, clear ADMIN PIN, clear (as root), scan, list, enroll NAME [LABEL] [--duress] [--admin], delete NAME [LABEL]"

    func acceptClients() {
        while let connection = try? control.accept(deadline: .now) {
            clients.append(connection)
        }
    }

    func serviceClient(_ client: UnixConnection) {
        while true {
            let line: String?
            do { line = try client.readLine(deadline: .now) } catch {
                dropClient(client)
                return
            }
            guard let line else { break }
            handleCommand(line, from: client)
        }
        if client.isClosedByPeer { dropClient(client) }
    }

    func dropClient(_ client: UnixConnection) {
        client.close()
        clients.removeAll { $0 === client }
        for (id, waiting) in pendingReplies where waiting === client {
            pendingReplies[id] = nil
            // An enroll nobody waits for any more must not keep the module busy.
            worker.cancel(requestID: id)
        }
    }

    func reply(_ client: UnixConnection, _ pairs: [(String, String)]) {
        do { try client.send(line: JSONText.object(pairs), deadline: .now + .milliseconds(200)) } catch { dropClient(client) }
    }

    /// `code` says what kind of refusal it is, so a client can pick its exit status:
    /// `usage`, `busy` (retry later), `unavailable` (no module), `denied`, `refused` (bad data), `failed`.
    func replyError(_ client: UnixConnection, _ message: String, code: String = "usage") {
        reply(client, [("ok", "false"), ("error", JSONText.string(message)), ("code", JSONText.string(code))])
    }

    func handleCommand(_ line: String, from client: UnixConnection) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard let verb = words.first?.lowercased() else { return replyError(client, "empty command; " + Self.controlUsage) }
        let arguments = Array(words.dropFirst())
        switch verb {
        case "status":
            reply(client, statusPairs())
        case "scan":
            guard moduleConnected else { return replyError(client, "the fingerprint module is not connected; check the wiring and the log", code: "unavailable") }
            guard !moduleBusy else { return replyError(client, "a scan or an admin command is already running; retry when it has finished", code: "busy") }
            requestScan(edge: Monotonic.nanoseconds())
            reply(client, [("ok", "true"), ("result", JSONText.string("scanning"))])
        case "pin":
            guard (1...2).contains(arguments.count) else { return replyError(client, "usage: pin [USER] PIN") }
            checkPin(user: arguments.count == 2 ? arguments[0] : nil, pin: arguments.last!, action: .unlock, client: client)
        case "clear" where arguments.isEmpty:
            clearAsTrustedPeer(client)
        case "unlock", "clear":
            guard arguments.count == 2 else {
                return replyError(client, verb == "clear" ? "usage: clear ADMIN PIN, or `clear` alone as root on this machine" : "usage: unlock ADMIN PIN")
            }
            checkPin(user: arguments[0], pin: arguments[1], action: verb == "unlock" ? .adminUnlock : .adminClear, client: client)
        case "list":
            reply(client, listPairs())
        case "enroll", "delete":
            let request: AdminRequest
            do throws(ControlUsageError) {
                if verb == "enroll" {
                    request = .enroll(try EnrollRequest(controlArguments: arguments))
                } else {
                    guard (1...2).contains(arguments.count) else { throw ControlUsageError("usage: delete NAME [LABEL]") }
                    request = .delete(user: arguments[0], label: arguments.count == 2 ? arguments[1] : nil)
                }
            } catch { return replyError(client, error.description) }
            guard moduleConnected else { return replyError(client, "the fingerprint module is not connected; retry when it is", code: "unavailable") }
            guard !adminInFlight else { return replyError(client, "the module is busy with another admin command; retry in a moment", code: "busy") }
            let id = nextRequestID
            nextRequestID += 1
            pendingReplies[id] = client
            adminInFlight = true
            worker.submit(.admin(requestID: id, request))
        default:
            replyError(client, "unknown command '\(verb)'; " + Self.controlUsage)
        }
    }

    /// Users and their fingers from the store (no module command needed).
    func listPairs() -> [(String, String)] {
        do {
            let users = try store.users().map { user -> String in
                let fingers = try store.fingers(of: user.name).map {
                    JSONText.object([("label", JSONText.string($0.label)), ("slot", String($0.slot)),
                                     ("duress", $0.isDuress ? "true" : "false")])
                }
                return JSONText.object([("name", JSONText.string(user.name)), ("displayName", JSONText.string(user.displayName)),
                                        ("role", JSONText.string(user.role.rawValue)),
                                        ("fingerprintUnlock", user.fingerprintUnlock ? "true" : "false"),
                                        ("hasPIN", user.hasPIN ? "true" : "false"), ("fingers", "[" + fingers.joined(separator: ",") + "]")])
            }
            return [("ok", "true"), ("users", "[" + users.joined(separator: ",") + "]")]
        } catch {
            return [("ok", "false"), ("error", JSONText.string("store: \(error)"))]
        }
    }

    func statusPairs() -> [(String, String)] {
        let status = state.status(at: clock.now(), config: policy.config)
        let lockout: String
        var pairs: [(String, String)] = [("ok", "true")]
        switch status.fingerprintLockout {
        case .none: lockout = "none"
        case .timed(let remaining):
            lockout = "timed"
            pairs.append(("lockoutRemainingSeconds", JSONText.number(remaining.rounded(.up))))
        case .permanent: lockout = "permanent"
        }
        pairs += [
            ("locked", status.isUnlocked ? "false" : "true"),
            ("relay", relayOn ? "true" : "false"),
            ("door", JSONText.string(status.doorOpen.map { $0 ? "open" : "closed" } ?? "unknown")),
            ("module", JSONText.string(moduleConnected ? "connected" : "disconnected")),
            ("scanInFlight", moduleBusy ? "true" : "false"),
            ("fingerprintLockout", JSONText.string(lockout)),
            ("failures", String(status.consecutiveFingerprintFailures)),
            ("pinFailures", String(status.consecutivePinFailures)),
            ("pinRequired", "[" + status.pinRequired.map { JSONText.string($0.rawValue) }.joined(separator: ",") + "]"),
            ("pinOnly", status.pinOnly.map { JSONText.string($0.description) } ?? "null"),
            ("tamper", status.tamperSwitchActive ? "true" : "false"),
            ("events", String(front.shared.withLock { $0.eventCount })),
            ("pid", String(getpid())),
            ("port", options.modulePort.map(JSONText.string) ?? "null"),
            ("store", JSONText.string(options.storePath ?? store.databasePath)),
        ]
        return pairs
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
        reply(client, [("ok", "true"), ("result", JSONText.string("cleared"))])
    }

    /// Asks the policy first (a PIN lockout refuses before any check, so it is no oracle), then
    /// verifies off the loop (memory-hard hash); `finishPinCheck` decides on the loop.
    func checkPin(user: String?, pin: String, action: PinPurpose, client: UnixConnection) {
        if let refusal = decide(.pinOffered(user: user, purpose: action)).denial {
            return reply(client, [("ok", "false"), ("result", JSONText.string("denied")), ("reason", JSONText.string(refusal.description))])
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
        if let problem = check.problem {
            if let client { replyError(client, "PIN check failed: \(problem)", code: "failed") }
            return
        }
        let effects = decide(.pinEntered(user: check.user, correct: check.correct, isAdmin: check.isAdmin, purpose: check.action))
        guard let client else { return }
        if let denial = effects.denial {
            reply(client, [("ok", "false"), ("result", JSONText.string("denied")), ("reason", JSONText.string(denial.description))])
        } else if effects.contains(where: { if case .unlock = $0 { true } else { false } }) {
            reply(client, [("ok", "true"), ("result", JSONText.string("unlocked"))] + (check.user.map { [("user", JSONText.string($0))] } ?? []))
        } else {
            reply(client, [("ok", "true"), ("result", JSONText.string(check.action == .adminClear ? "cleared" : "accepted"))])
        }
    }
}

extension Array where Element == PolicyEffect {
    /// The policy's refusal among these effects, if it refused.
    var denial: DenyReason? {
        lazy.compactMap { effect -> DenyReason? in
            if case .deny(let reason) = effect { return reason } else { return nil }
        }.first
    }
}
