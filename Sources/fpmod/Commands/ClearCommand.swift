import ArgumentParsing
import ServiceClient

/// `fpmod clear`: ends the running service's lockouts (fingerprint and PIN) and PIN-only mode,
/// without a PIN. For root on the machine itself: the service checks the caller's uid on its
/// control socket (`SO_PEERCRED`), so an admin locked out of PIN entry is never stuck.
enum ClearCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let service = try ServiceConnection.require(invocation.serviceAddress())
        let reply = try service.send(.clearAsRoot, lineTimeout: .seconds(10))
        try ServiceConnection.check(reply)
        invocation.emit("Lockouts and PIN-only mode cleared (a PIN is still required once where the policy asks for one).",
                        json: ["result": "cleared"])
        return .ok
    }
}
