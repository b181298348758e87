import Administration
import ArgumentParsing

/// `fpmod delete NAME [--finger LABEL]`: from the module and the store, crash-safe.
enum DeleteCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let name = try invocation.parsed.require("name")
        let (store, session, administrator) = try AdminCommand.open(invocation)
        defer { session.close() }
        guard try store.user(named: name) != nil else { throw StoreErrorBridge.unknownUser(name) }
        let result = try administrator.delete(user: name, label: invocation.parsed.string("finger"))
        let fingers = result.fingers.map { "\($0.label) (slot \($0.slot))" }.joined(separator: ", ")
        invocation.emit(result.userRemoved
                        ? "Deleted \(name)" + (fingers.isEmpty ? "." : " and \(fingers).")
                        : "Deleted \(name)'s \(fingers).",
                        json: ["user": .string(name), "userRemoved": .bool(result.userRemoved),
                               "fingers": .array(result.fingers.map { ["label": .string($0.label), "slot": .int(Int64($0.slot))] })])
        return .ok
    }
}
