import AccessPolicy

/// Home Assistant's requests between their steps: a code waiting for the PIN checker, then
/// an admin command waiting for the module worker. Keyed by the runtime's request ids, like
/// the control socket's `pendingReplies`, so the same worker and checker serve both.
struct RemoteRequests {
    enum Kind {
        case unlock
        case admin(HomeAssistantAdminCommand)
    }

    struct PinCheck {
        var kind: Kind
        var source: RequestSource
    }

    var pinChecks: [Int: PinCheck] = [:]
    var adminJobs: [Int: HomeAssistantAdminCommand] = [:]
}
