import Administration
import ArgumentParsing
import Posix
import PrintableText
import TemplateStore
import ServiceClient

/// `fpmod delete NAME [--finger LABEL]`: from the module and the store, crash-safe — through the
/// running service when there is one.
enum DeleteCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let name = try invocation.parsed.require("name")
        let label = invocation.parsed.string("finger")
        let library = try invocation.readerChoice().isImageSensor ? "the host library" : "the module"
        let shown = Printable.escaped(name)
        try Confirmation.ask(invocation, "Delete " + (label.map { "\(shown)'s \(Printable.escaped($0))" } ?? "\(shown) and every finger of \(shown)")
                             + " from \(library) and the store")
        if let service = try ServiceConnection.connectIfRunning(invocation.serviceAddress()) {
            let reply = try service.send(.delete(user: name, label: label))
            try ServiceConnection.check(reply)
            let fingers = (reply["fingers"]?.arrayValue ?? []).map {
                RemovedFinger(label: $0["label"]?.stringValue ?? "?", slot: $0["slot"]?.intValue ?? -1)
            }
            return report(user: name, fingers: fingers, userRemoved: reply["userRemoved"]?.boolValue ?? false, invocation)
        }
        let (store, session) = try AdminCommand.openReader(invocation)
        defer { session.close() }
        guard try store.user(named: name) != nil else { throw StoreError.unknownUser(name) }
        let result = try session.reader.delete(user: name, label: label)
        return report(user: name, fingers: result.fingers, userRemoved: result.userRemoved, invocation)
    }

    private static func report(user name: String, fingers removed: [RemovedFinger], userRemoved: Bool,
                               _ invocation: Invocation) -> ExitCode {
        let fingers = removed.map { "\(Printable.escaped($0.label)) (slot \($0.slot))" }.joined(separator: ", ")
        let shown = Printable.escaped(name)
        invocation.emit(userRemoved
                        ? "Deleted \(shown)" + (fingers.isEmpty ? "." : " and \(fingers).")
                        : "Deleted \(shown)'s \(fingers).",
                        json: ["user": .string(name), "userRemoved": .bool(userRemoved),
                               "fingers": .array(removed.map { ["label": .string($0.label), "slot": .int(Int64($0.slot))] })])
        return .ok
    }
}
