import Administration
import ArgumentParsing
import ServiceClient

/// `fpmod unpair`: the module back to the factory password and address, the pairing forgotten.
/// Needs the store that paired it (the only keeper of its password and address).
enum UnpairCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        try ServiceConnection.refuseWhileServing(invocation.serviceAddress(), command: "unpair")
        // A reset module is not the paired one, yet unpairing it is what the user wants: the
        // finding decides inside `unpair` (a swapped module is still refused there).
        let (_, session, administrator) = try AdminCommand.open(invocation, allowUntrusted: true)
        defer { session.close() }
        let identity = try administrator.unpair()
        invocation.emit("Unpaired: the \(identity.family) module answers again to the factory password 00000000 at address "
                        + "FFFFFFFF, and this store no longer knows it. Pair it again with `fpmod pair`.",
                        json: ["family": .string(identity.family), "address": .string("FFFFFFFF")])
        return .ok
    }
}
