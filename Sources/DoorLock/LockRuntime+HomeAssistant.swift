import AccessPolicy
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
                                                 timing: options.mqttTiming, log: log)
            homeAssistantFacts.capacity = identity?.capacity
            homeAssistantFacts.templates = try? store.occupiedSlots().count
            bridge.onUnlockRequest = { [unowned self] code in remoteUnlock(code: code, settings: settings) }
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
        startHomeAssistant(identity: try? store.moduleIdentity())
    }

    /// What the event says about the lock beyond the policy's state: who opened it, a forced
    /// door, the last identify's latency. Then the event itself, for the event entity.
    func observeForHomeAssistant(_ event: LockEvent) {
        guard let bridge = homeAssistant else { return }
        switch event.name {
        case "unlocked": homeAssistantFacts.changedBy = event.fields["user"]
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

    /// A code from Home Assistant goes the keypad's way: the policy first (a PIN lockout,
    /// tamper or PIN-only refuses before any check), then the PIN checker, with the same
    /// counters; `finishPinCheck` decides, and the state topics show the outcome.
    func remoteUnlock(code: String, settings: LockConfig.MQTT) {
        let purpose: PinPurpose = settings.remoteUnlock == .adminPIN ? .adminUnlock : .unlock
        if let refusal = decide(.pinOffered(user: nil, purpose: purpose)).denial {
            return log("mqtt: remote unlock refused: \(refusal)")
        }
        let id = nextRequestID
        guard pinChecker.submit(.init(requestID: id, action: purpose, user: nil, pin: code)) else {
            return log("mqtt: remote unlock refused: too many PINs are being checked")
        }
        nextRequestID += 1
    }

    func homeAssistantStatus() -> HomeAssistantLockStatus {
        var status = HomeAssistantLockStatus(policy: state.status(at: clock.now(), config: config.policy))
        let facts = homeAssistantFacts
        status.changedBy = facts.changedBy
        status.forced = facts.forced && status.doorOpen == true
        status.identifyMilliseconds = facts.identifyMilliseconds
        status.templates = facts.templates
        status.capacity = facts.capacity
        status.touching = !touchArmed
        status.moduleConnected = moduleConnected
        return status
    }
}
