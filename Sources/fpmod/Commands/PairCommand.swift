import Administration
import ArgumentParsing
import FingerprintProtocol
import ServiceClient

/// `fpmod pair [--force]`: random password and address, kept encrypted in the store.
enum PairCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let force = invocation.parsed.flag("force")
        try ServiceConnection.refuseWhileServing(invocation.serviceAddress(), command: force ? "pair --force" : "pair")
        let (_, session, administrator) = try AdminCommand.open(invocation, allowUntrusted: force, createStore: true)
        defer { session.close() }
        let identity = try administrator.pair(force: force)
        invocation.emit("Paired: the \(identity.family) module (\(identity.capacity) slots) now has a random password and address, stored encrypted. "
                        + "Every open re-checks them.",
                        json: ["family": .string(identity.family), "capacity": .int(Int64(identity.capacity)),
                               "address": .string(identity.address.hex8)])
        return .ok
    }
}
