import Administration
import ArgumentParsing
import PrintableText
import TemplateStore

/// `fpmod rename OLD NEW`: store only.
enum RenameCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let old = try invocation.parsed.require("name")
        let new = try UserName(validating: try invocation.parsed.require("new-name"))
        let store = try invocation.openStore()
        try StoreAdministration.renameUser(store, user: old, to: new)
        invocation.emit("Renamed \(Printable.escaped(old)) to \(Printable.escaped(new.text)).", json: ["from": .string(old), "to": .string(new.text)])
        return .ok
    }
}
