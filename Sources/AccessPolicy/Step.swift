/// One run of `decide`: the state being changed and the effects collected so far.
struct Step {
    let config: PolicyConfig
    let now: PolicyTime
    var state: PolicyState
    var effects: [PolicyEffect] = []
    /// Schedules, validity and uses; nil: none.
    let access: AccessRules?
    /// The reader this event came from (changed only while recording a pair's first person).
    var side: ReaderSide
    /// A door-mode change made during this step, reported once by `settlePassage`.
    var modeChange: ModeChange?
    /// This step handled `.started`.
    var handledStart = false
    /// The wall clock's step since the last observation, to report (`reportWallStep`).
    var wallStep: Double?
    /// The last observation was in another boot (or an unknown one): no time was credited.
    var rebooted = false

    init(config: PolicyConfig, now: PolicyTime, state: PolicyState, access: AccessRules? = nil, side: ReaderSide = .entry) {
        self.config = config
        self.now = now
        self.state = state
        self.access = access
        self.side = side
    }

    /// Policy clock now (valid after `advanceClock`).
    var clock: Double { state.clock }

    /// The runtime's time for a policy-clock value.
    func time(at policyClock: Double) -> PolicyTime {
        now.advanced(by: policyClock - clock)
    }

    mutating func emit(_ effect: PolicyEffect) {
        effects.append(effect)
    }

    /// While the wall clock disagrees with the policy clock, the event carries both (`clockFields`).
    mutating func event(_ name: String, _ fields: [String: String] = [:]) {
        effects.append(.event(name: name, fields: fields.merging(clockFields) { own, _ in own }))
    }

    /// While the wall clock disagrees with the policy clock, the detail says both (`clockDetail`).
    mutating func audit(_ name: String, user: String? = nil, _ detail: String) {
        effects.append(.audit(event: name, user: user, detail: detail + clockDetail))
    }

    mutating func handle(_ event: PolicyEvent) {
        switch event {
        case .started:
            handledStart = true
            handleStarted()
        case .tick: break // expiry already ran
        case let .fingerMatched(user, slot, score, isAdmin, isDuress, enabled, mode):
            let match = FingerMatch(user: user, slot: slot, score: score, isAdmin: isAdmin,
                                    isDuress: isDuress, userEnabled: enabled)
            if usesFactorRules(userMode: mode) { presentFinger(match, userMode: mode) } else { handleMatch(match) }
        case .fingerNotMatched:
            if usesFactorRules(userMode: nil) { presentFinger(nil, userMode: nil) } else { handleNoMatch() }
        case .cardPresented(let card): presentCard(card)
        case .captureRejected(let problem): handleCaptureRejected(problem)
        case let .pinOffered(user, purpose, source):
            if let refusal = pinRefusal(purpose: purpose, source: source) {
                if purpose == .unlock, source == .local { state.pendingFactor = nil }
                deny(refusal, user: user, source: source)
            }
        case let .pinEntered(user, correct, isAdmin, purpose, source, mode):
            // Verify modes govern opening the door from here; admin purposes and Home
            // Assistant's code keep their own rules.
            if purpose == .unlock, source == .local, usesFactorRules(userMode: mode) {
                presentPin(user: user, correct: correct, isAdmin: isAdmin, userMode: mode)
            } else {
                handlePin(user: user, correct: correct, isAdmin: isAdmin, purpose: purpose, source: source)
            }
        case .lockRequested(let source): handleLockRequest(source: source)
        case .unlockRequested: handleUnlockRequested()
        case .adminClear: handleAdminClear(by: "root on this machine")
        case .savedStateUnreadable(let problem): handleSavedStateUnreadable(problem)
        case let .matchUnresolved(slot, problem): handleMatchUnresolved(slot: slot, problem: problem)
        case .enrolledSetChanged(let digest): handleEnrolledSet(digest)
        case .enrolledSetFromHub(let digest): handleEnrolledSetFromHub(digest)
        case let .requestToggleFingerprintUnlock(user, enable, verifiedBy):
            handleToggle(user: user, enable: enable, verifiedBy: verifiedBy)
        case .activity: handleActivity()
        case .background: handleBackground()
        case .doorOpened: handleDoor(open: true)
        case .doorClosed: handleDoor(open: false)
        case .exitButton: handleExitButton()
        case .tamper(let active): handleTamperSwitch(active: active)
        case .moduleTamper(let reason): handleModuleTamper(reason)
        case .moduleDisconnected: handleModuleConnection(connected: false)
        case .moduleReconnected: handleModuleConnection(connected: true)
        case .useRefused(let user): withdrawGrant(of: user)
        case let .setDoorMode(mode, source, by, isAdmin):
            handleSetDoorMode(mode, source: source, by: by, isAdmin: isAdmin)
        case let .passbackReset(user, by): handlePassbackReset(user: user, by: by)
        }
    }
}

/// The fields of `.fingerMatched`, bundled.
struct FingerMatch {
    let user: String
    let slot: Int
    let score: Int
    let isAdmin: Bool
    let isDuress: Bool
    let userEnabled: Bool
}
