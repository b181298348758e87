/// Something the runtime observed and hands to `decide`. The runtime has already done the
/// I/O: matched the finger, looked the slot up in the store, checked the PIN hash.
public enum PolicyEvent: Codable, Equatable, Sendable {
    /// The service (re)started with this state restored. Send it first, every start.
    case started
    /// A deadline from `nextDeadline` was reached (or any time: ticks are idempotent).
    case tick

    /// A good-quality capture matched `slot`, which the store maps to `user`. `verifyMode` is
    /// the user's own verify mode when the store sets one (else the door's applies).
    case fingerMatched(user: String, slot: Int, score: Int, isAdmin: Bool, isDuress: Bool,
                       fingerprintUnlockEnabled: Bool, verifyMode: VerifyMode? = nil)
    /// A good-quality capture matched nothing: a false trial, counted toward lockout.
    case fingerNotMatched
    /// A capture too poor to match (or the finger was misplaced): not a false trial.
    case captureRejected(CaptureProblem)

    /// Someone offers a PIN for `purpose`. Send it BEFORE checking the PIN: while PIN entry is
    /// locked out it is refused here (a `.deny` effect) and the runtime must not check the PIN
    /// at all, so a lockout is never a PIN oracle. No effects otherwise.
    case pinOffered(user: String?, purpose: PinPurpose = .unlock, source: RequestSource = .local)
    /// A PIN was entered and checked by the runtime against the store's hashes.
    /// `user` is the owner of the PIN when known; `isAdmin` when it is an admin's PIN.
    /// Every verb that checks a PIN ends here, so every wrong PIN is counted the same way.
    /// `verifyMode` is the owner's own verify mode when the store sets one.
    case pinEntered(user: String?, correct: Bool, isAdmin: Bool = false, purpose: PinPurpose = .unlock,
                    source: RequestSource = .local, verifyMode: VerifyMode? = nil)
    /// A card (NFC, or a Wiegand reader's card number) was read and looked up in the store.
    case cardPresented(CardPresentation)
    /// Lock now (Home Assistant's `LOCK`): ends an unlock window early. Needs no credential:
    /// locking is the direction a door fails to anyway.
    case lockRequested(source: RequestSource)
    /// Unlock without a new capture (e.g. a button on the kiosk); only honoured in the grace window.
    case unlockRequested
    /// Lockouts and PIN-only mode cleared by someone already trusted without a PIN: root on the
    /// machine itself (the control socket checks the peer's uid). A socket `clear ADMIN PIN`
    /// is `.pinEntered(purpose: .adminClear)` instead, so it is rate-limited like any PIN.
    case adminClear
    /// The saved policy state could not be read (corrupt or the store failed): whatever
    /// lockout it held is unknown, so a PIN is required before fingerprints work again.
    case savedStateUnreadable(String)
    /// A match could not be mapped to a user because the store failed: neither a match nor tamper.
    case matchUnresolved(slot: Int, problem: String)

    /// The store's digest of the enrolled set, at start and after every change.
    case enrolledSetChanged(digest: String)
    /// The enrolled set changed by the fleet hub's doing (a finger enrolled at another door, a user
    /// removed at the hub), to `digest`: authorised there, so no PIN is asked for it here.
    case enrolledSetFromHub(digest: String)
    /// Someone asks to switch fingerprint unlock for `user` on or off.
    case requestToggleFingerprintUnlock(user: String, enable: Bool, verifiedBy: VerifiedIdentity?)

    /// Kiosk mode: the user touched the UI; pushes the idle re-lock back.
    case activity
    /// Kiosk mode: the UI went to the background; re-lock soon.
    case background

    case doorOpened
    case doorClosed
    /// Request to exit (REX button): always opens, even in lockout or PIN-only mode.
    case exitButton

    /// The enclosure tamper switch changed.
    case tamper(active: Bool)
    /// The module disagrees with the store (unknown slot, swapped module, wrong identity).
    case moduleTamper(ModuleTamperReason)
    case moduleDisconnected
    case moduleReconnected
    /// The store had no use left for a grant this decision made (`PolicyEffect.consumeUse`).
    case useRefused(user: String)
    /// Someone asks to put the door in `mode` (see `DoorMode`). `by` names them for the audit
    /// log (an admin's name, "root on the control socket"). A remote request needs `isAdmin`:
    /// the runtime sets it only after an admin's name and PIN were accepted
    /// (`.pinEntered(purpose: .adminCommand)`); a local one is trusted as the socket is.
    case setDoorMode(DoorMode, source: RequestSource, by: String?, isAdmin: Bool = false)
    /// Anti-passback: forget `user`'s last reader side (nil: everyone's). Send it when a user
    /// is deleted from the store, or when an admin forgives someone stuck outside.
    case passbackReset(user: String?, by: String?)
}

/// What a PIN is offered for; the admin purposes need an admin's PIN.
public enum PinPurpose: String, Codable, Sendable {
    /// `pin [USER] PIN`: open the door.
    case unlock
    /// `unlock ADMIN PIN`: open the door as an admin (also ends PIN-only mode).
    case adminUnlock
    /// `clear ADMIN PIN`: end lockouts and PIN-only mode without opening.
    case adminClear
    /// An admin's PIN for an admin command (a remote enroll or delete): proves an admin asks,
    /// opens nothing.
    case adminCommand

    var needsAdmin: Bool { self != .unlock }
}

/// Where a request comes from. The policy trusts a PIN typed at the door (or through the
/// permission-protected control socket) more than one that arrives over the network: see
/// `RemoteRules.swift`.
public enum RequestSource: Codable, Equatable, Hashable, Sendable {
    case local
    /// Over MQTT from Home Assistant. MQTT does not tell a subscriber who published, so
    /// `client` names fpmod's own connection (client id and broker), the one the command
    /// arrived on.
    case remote(client: String)

    var isRemote: Bool { self != .local }
}

/// Why a capture could not be matched; never counted as a failure (Android CDD 7.3.10).
public enum CaptureProblem: String, Codable, Sendable {
    case poorQuality
    case misplaced
}

/// Who recently proved their identity, to authorise a settings change.
public struct VerifiedIdentity: Codable, Equatable, Sendable {
    public var user: String
    public var isAdmin: Bool
    /// When the verification (match or PIN) happened.
    public var verifiedAt: PolicyTime

    public init(user: String, isAdmin: Bool, verifiedAt: PolicyTime) {
        self.user = user
        self.isAdmin = isAdmin
        self.verifiedAt = verifiedAt
    }
}

/// What made the runtime distrust the module.
public enum ModuleTamperReason: Codable, Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The module matched a slot the store never enrolled.
    case unknownSlot(Int)
    /// Identity, password, address or slot table differ from the paired module.
    case moduleSwapped
    case other(String)

    public var description: String {
        switch self {
        case .unknownSlot(let slot): "module matched slot \(slot), which the store never enrolled"
        case .moduleSwapped: "module identity differs from the paired module"
        case .other(let text): text
        }
    }
}
