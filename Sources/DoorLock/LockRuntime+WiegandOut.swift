import AccessPolicy
import TemplateStore
import Wiegand
import WiegandOutput

/// fpmod in front of an access panel: after a grant to a user by their own credential (finger,
/// PIN, card or a pair of them: not the exit button, a grace reuse or Home Assistant), the
/// user's panel card goes out on the `wiegandOut` lines. The `wiegand-out` event says `sent`,
/// `no-card` (the user has none), `busy` or `failed`; never the number.
extension LockRuntime {
    func startWiegandOut() {
        guard let section = config.wiegandOut else { return }
        do {
            let encoder = try section.encoder
            func offset(_ line: String, _ role: String) throws(WiegandSenderError) -> Int {
                guard let found = chip.lineOffset(spec: line) else { throw .noSuchName(line, role: role, chip: chip.name) }
                return found
            }
            let sender = try WiegandSender(chip: chip, d0: try offset(section.d0, "D0"), d1: try offset(section.d1, "D1"), encoder: encoder)
            let port = WiegandOutPort(sender: sender) { [front] result in front.post(.wiegandOutSent(result)) }
            port.start()
            wiegandOut = port
            log("wiegand out: to the panel on D0 \(section.d0), D1 \(section.d1)")
        } catch {
            log("wiegand out: not used: \(error)")
        }
    }

    func sendToPanel(after reason: UnlockReason, user: String) {
        guard let wiegandOut else { return }
        switch reason {
        case .exitButton, .remote, .grace, .passage: return
        case .fingerprint, .pin, .card, .cardAndFinger, .fingerAndPin, .cardAndPin: break
        }
        let credential: WiegandCredential
        do {
            guard let number = try store.panelCard(of: user), let parsed = number.wiegandCredential else {
                return emit(LockEvent(name: "wiegand-out", fields: ["result": "no-card"]))
            }
            credential = parsed
        } catch {
            log("wiegand out: the store failed while reading the panel card (\(error)); nothing sent")
            return emit(LockEvent(name: "wiegand-out", fields: ["result": "failed"]))
        }
        if !wiegandOut.submit(.init(user: user, credential: credential)) {
            log("wiegand out: too many grants waiting to be sent; this one was dropped")
            emit(LockEvent(name: "wiegand-out", fields: ["result": "busy"]))
        }
    }

    func finishWiegandOut(_ result: WiegandOutPort.Result) {
        if let problem = result.problem {
            log("wiegand out: sending failed: \(problem)")
            return emit(LockEvent(name: "wiegand-out", fields: ["result": "failed"]))
        }
        // The frame's size and how well its timing held (a loaded machine stretches pulses).
        var fields = ["result": "sent"]
        if let sent = result.sent {
            fields["bits"] = String(sent.pulses)
            fields["widest-pulse-us"] = String(sent.widestPulse / 1000)
            fields["latest-start-us"] = String(sent.latestStart / 1000)
        }
        emit(LockEvent(name: "wiegand-out", fields: fields))
    }
}
