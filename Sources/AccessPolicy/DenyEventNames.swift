extension DenyReason {
    /// The public event name reported for this refusal (fprintd-like vocabulary).
    var eventName: String {
        switch self {
        case .noMatch: "no-match"
        case .lockedOut: "lockout"
        case .permanentlyLockedOut: "lockout-permanent"
        case .pinRequired: "pin-required"
        case .wrongPin, .wrongPinLockoutStarted, .wrongPinPermanentLockoutStarted: "pin-wrong"
        case .notAnAdmin: "admin-required"
        case .storeFailed: "error"
        case .pinLockedOut: "pin-lockout"
        case .pinPermanentlyLockedOut: "pin-lockout-permanent"
        case .fingerprintDisabledForUser, .fingerprintDisabledGlobally: "fingerprint-disabled"
        case .pinOnlyMode: "pin-only"
        case .verificationRequired: "verification-required"
        case .freshMatchRequired: "match-required"
        case .moduleUnavailable: "module-unavailable"
        case .remoteNotAllowed: "remote-refused"
        case .unknownCard: "card-unknown"
        case .cardDisabled: "card-disabled"
        case .cardLockedOut: "card-lockout"
        case .cardPermanentlyLockedOut: "card-lockout-permanent"
        case .credentialsNotAccepted: "not-accepted"
        case .factorNotAccepted: "factor-refused"
        case .accessRule, .lockdown, .hubSilent: "not-now"
        case .passback: "passback"
        }
    }

    /// Extra public fields that help a dashboard explain the refusal.
    var eventFields: [String: String] {
        switch self {
        case .lockedOut(let remaining), .pinLockedOut(let remaining), .cardLockedOut(let remaining):
            ["remaining": String(wholeSecondsUp(remaining))]
        case .pinRequired(let reason): ["reason": reason.rawValue]
        case .pinOnlyMode(let reason): ["reason": reason.description]
        case .remoteNotAllowed(let refusal): ["reason": refusal.rawValue]
        case .factorNotAccepted(let factor, let mode): ["factor": factor.rawValue, "mode": mode.rawValue]
        case .accessRule(let denial): ["rule": denial.code]
        case .lockdown: ["rule": "lockdown"]
        case .hubSilent(let minutes, let mode): ["rule": "hub-silent", "minutes": String(minutes), "mode": mode.rawValue]
        case .passback(let lastEntry): ["last-entry": String(lastEntry)]
        default: [:]
        }
    }
}
