import AccessPolicy
import JSONValue
import TemplateStore

extension LockRuntime {
    /// Starts the bridge when the config has an `mqtt` section. Nothing here can stop the lock
    /// from starting: a bad password file or broker costs the bridge, logged, not the door.
    func startHomeAssistant(identity: ModuleIdentity?) {
        guard let settings = config.mqtt else { return }
        let problems = config.mqttProblems()
        guard problems.isEmpty else {
            log("mqtt: not connecting to Home Assistant: " + problems.joined(separator: "; "))
            return
        }
        do {
            let bridge = try HomeAssistantBridge(settings: settings, password: try config.mqttPassword(),
                                                 device: HomeAssistantDevice(identity: identity, softwareVersion: options.softwareVersion),
                                                 privacy: config.privacy.mqtt, timing: options.mqttTiming, log: { [front] in front.writeLog($0) })
            homeAssistantFacts.capacity = identity?.capacity
            homeAssistantFacts.templates = try? store.occupiedSlots().count
            homeAssistantJam = HomeAssistantJam(threshold: settings.jammedAfter)
            bridge.onUnlockRequest = { [unowned self] code in remoteUnlock(code: code, settings: settings) }
            bridge.onLockRequest = { [unowned self] in remoteLock() }
            bridge.onAdminRequest = { [unowned self] command in remoteAdmin(command) }
            bridge.onDoorModeRequest = { [unowned self] mode in remoteDoorMode(mode) }
            homeAssistant = bridge
            bridge.update(homeAssistantStatus())
            bridge.start()
        } catch {
            log("mqtt: not connecting to Home Assistant: \(error)")
        }
    }

    /// After a reload changed the `mqtt` section: the old bridge goes (taking the device out of
    /// Home Assistant when the section is gone), and the new one starts.
    func restartHomeAssistant() {
        if let bridge = homeAssistant {
            if config.mqtt == nil || config.mqtt?.deviceID != bridge.settings.deviceID
                || config.mqtt?.discoveryPrefix != bridge.settings.discoveryPrefix {
                bridge.removeDevice()
            }
            bridge.stop()
            homeAssistant = nil
        }
        // Remote requests still being checked stay remote: their outcome is decided as such
        // (and published on the new connection, if there is one).
        startHomeAssistant(identity: try? store.moduleIdentity())
    }

    /// What the event says about the lock beyond the policy's state: who opened it, a forced
    /// door, tries that did not open it, the last identify's latency. Then the event itself,
    /// for the event entity.
    func observeForHomeAssistant(_ event: LockEvent) {
        guard let bridge = homeAssistant else { return }
        let now = clock.now().monotonic
        switch event.name {
        case "unlocked":
            homeAssistantFacts.changedBy = event.fields["user"]
            homeAssistantJam.unlocked(reason: event.fields["reason"] ?? "", doorOpen: state.door.isOpen, at: now)
            // Published now, as the event says, not at the end of the loop turn: on a loaded
            // machine a short relay pulse can be over by then, and Home Assistant would never
            // see the unlock. The turn's own update publishes the relock after it.
            var unlocked = homeAssistantStatus()
            unlocked.unlocked = true
            bridge.update(unlocked)
        case "locked":
            homeAssistantJam.locked(ranOut: event.fields["cause"] == "timeout", at: now)
            bridge.update(homeAssistantStatus())
        case "door-opened": homeAssistantJam.doorOpened()
        case "door-forced": homeAssistantFacts.forced = true
        case "door-closed": homeAssistantFacts.forced = false
        case "match", "no-match":
            if let search = event.timing?.millisecondsFromEdge.first(where: { $0.stage == "searchEnd" }) {
                homeAssistantFacts.identifyMilliseconds = search.milliseconds
            }
        case "enrolled-set-changed": homeAssistantFacts.templates = try? store.occupiedSlots().count
        default: break
        }
        if event.isPublic { bridge.publish(event) }
    }

    /// A code from Home Assistant goes the keypad's way, as a remote request: the policy first
    /// (tamper, a permanent lockout, a PIN lockout refuse before any check), then the PIN
    /// checker with the same counters; `finishPinCheck` decides, and the state topics show the
    /// outcome. The audit row names fpmod's connection and the user whose PIN it was.
    func remoteUnlock(code: String, settings: LockConfig.MQTT) {
        let purpose: PinPurpose = settings.remoteUnlock == .adminPIN ? .adminUnlock : .unlock
        submitRemotePin(code, purpose: purpose, kind: .unlock, what: "unlock")
    }

    /// `LOCK`: through the policy, which ends the unlock window (relay off) if there is one.
    func remoteLock() {
        guard let bridge = homeAssistant else { return }
        let wasUnlocked = state.lock != .locked
        decide(.lockRequested(source: .remote(client: bridge.connectionName)))
        log("mqtt: LOCK from Home Assistant: " + (wasUnlocked ? "locked now" : "already locked"))
    }

    /// The select entity: no code comes with it, so the policy takes only a mode that keeps
    /// people out (into lockdown, or back to normal after passage); any other needs the admin
    /// command `{"command":"door-mode","mode":…,"code":…}`.
    func remoteDoorMode(_ mode: DoorMode) {
        guard let bridge = homeAssistant else { return }
        if let refusal = decide(.setDoorMode(mode, source: .remote(client: bridge.connectionName), by: "Home Assistant")).denial {
            log("mqtt: door mode \(mode.rawValue) from Home Assistant refused: \(refusal); send it as an admin command with an admin's PIN")
        }
    }

    /// An admin command: refused at once when the module cannot run it, otherwise the admin's
    /// code is checked like any PIN (`adminCommand`, or `adminClear` for a clear), and only then
    /// does the worker get the job (`finishRemote`).
    func remoteAdmin(_ command: HomeAssistantAdminCommand) {
        guard config.mqtt?.adminCommands == true else { return }
        if command.needsModule, let problem = adminUnavailable {
            return remoteAdminFailed(command, problem)
        }
        submitRemotePin(command.code, purpose: command.action == .clear ? .adminClear : .adminCommand,
                        kind: .admin(command), what: command.verb)
    }

    private func submitRemotePin(_ code: String, purpose: PinPurpose, kind: RemoteRequests.Kind, what: String) {
        guard let bridge = homeAssistant else { return }
        let source = RequestSource.remote(client: bridge.connectionName)
        if let refusal = decide(.pinOffered(user: nil, purpose: purpose, source: source)).denial {
            return log("mqtt: remote \(what) refused: \(refusal)")
        }
        let id = nextRequestID
        guard pinChecker.submit(.init(requestID: id, action: purpose, user: nil, pin: code)) else {
            if case .admin(let command) = kind { remoteAdminFailed(command, "too many PINs are being checked; retry in a moment") }
            return log("mqtt: remote \(what) refused: too many PINs are being checked")
        }
        nextRequestID += 1
        remoteRequests.pinChecks[id] = .init(kind: kind, source: source)
    }

    /// The policy has decided on a remote code (its events and audit rows are out already).
    func finishRemote(_ request: RemoteRequests.PinCheck, check: LockService.PinCheck, effects: [PolicyEffect]) {
        let who = check.user.map { config.privacy.log.show($0) ?? "a user" } ?? "nobody"
        let what: String
        switch request.kind {
        case .unlock: what = "unlock"
        case .admin(let command): what = command.verb
        }
        if let denial = effects.denial {
            return log("mqtt: remote \(what) refused: \(denial)")
        }
        switch request.kind {
        case .unlock:
            log("mqtt: remote unlock with \(who)'s PIN")
        case .admin(let command):
            log("mqtt: remote \(what) accepted with admin \(who)'s PIN")
            switch command.action {
            case .clear: break
            case .doorMode(let mode):
                let source = RequestSource.remote(client: homeAssistant?.connectionName ?? "mqtt")
                decide(.setDoorMode(mode, source: source, by: check.user, isAdmin: true))
            case let .enroll(user, finger): submitRemoteAdmin(.enroll(EnrollRequest(user: user, label: finger)), command)
            case let .delete(user, finger): submitRemoteAdmin(.delete(user: user, label: finger), command)
            }
        }
    }

    /// Why the module cannot take an admin job now; nil when it can.
    private var adminUnavailable: String? {
        if !moduleConnected { return "the fingerprint module is not connected; retry when it is" }
        if adminInFlight { return "the module is busy with another admin command; retry in a moment" }
        return nil
    }

    /// The control socket's path to the worker (`submitAdmin`), with Home Assistant waiting.
    private func submitRemoteAdmin(_ request: AdminRequest, _ command: HomeAssistantAdminCommand) {
        // The module may have gone, or another job come, while the PIN was checked.
        if let problem = adminUnavailable { return remoteAdminFailed(command, problem) }
        let id = nextRequestID
        nextRequestID += 1
        remoteRequests.adminJobs[id] = command
        adminInFlight = true
        worker.submit(.admin(requestID: id, request))
    }

    /// An enroll's step, in the words the CLI prints.
    func remoteAdminProgress(_ command: HomeAssistantAdminCommand, line: [String: JSONValue]) {
        var fields = ["progress": line["progress"]?.stringValue ?? "", "status": line["status"]?.stringValue ?? ""]
        fields["user"] = command.user
        emit(LockEvent(name: "enroll-progress", fields: fields))
    }

    /// The worker's reply, as an event: `enrolled`, `deleted` or `admin-failed`.
    func finishRemoteAdmin(_ command: HomeAssistantAdminCommand, reply: [String: JSONValue]) {
        guard reply["ok"]?.boolValue == true else {
            return remoteAdminFailed(command, reply["error"]?.stringValue ?? "failed")
        }
        var fields: [String: String] = [:]
        fields["user"] = command.user
        switch command.action {
        case .enroll:
            fields["finger"] = reply["label"]?.stringValue
            fields["slot"] = reply["slot"]?.intValue.map(String.init)
            emit(LockEvent(name: "enrolled", fields: fields))
        case .delete:
            let fingers = reply["fingers"]?.arrayValue ?? []
            fields["finger"] = fingers.compactMap { $0["label"]?.stringValue }.joined(separator: ",")
            fields["slots"] = fingers.compactMap { $0["slot"]?.intValue.map(String.init) }.joined(separator: ",")
            if reply["userRemoved"]?.boolValue == true { fields["userRemoved"] = "true" }
            emit(LockEvent(name: "deleted", fields: fields))
        case .clear, .doorMode:
            break
        }
        log("mqtt: remote \(command.verb) of \(command.user.map { config.privacy.log.show($0) ?? "a user" } ?? "-") done")
    }

    private func remoteAdminFailed(_ command: HomeAssistantAdminCommand, _ reason: String) {
        var fields = ["command": command.verb, "reason": reason]
        fields["user"] = command.user
        emit(LockEvent(name: "admin-failed", fields: fields))
        let shown = command.user.map { config.privacy.log.redact(reason, name: $0) } ?? reason
        log("mqtt: remote \(command.verb) failed: \(shown)")
    }

    func homeAssistantStatus() -> HomeAssistantLockStatus {
        var status = HomeAssistantLockStatus(policy: state.status(at: clock.now(), config: config.policy))
        let facts = homeAssistantFacts
        status.changedBy = facts.changedBy
        status.forced = facts.forced && status.doorOpen == true
        status.jammed = homeAssistantJam.jammed
        status.identifyMilliseconds = facts.identifyMilliseconds
        status.templates = facts.templates
        status.capacity = facts.capacity
        status.touching = !touchArmed
        status.moduleConnected = moduleConnected
        return status
    }
}
