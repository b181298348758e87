import Administration
import ArgumentParsing
import PrintableText
import TemplateStore

/// `fpmod pin NAME [--pin DIGITS | stdin] [--clear]`: stored as a memory-hard hash.
enum PINCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let name = try invocation.parsed.require("name")
        let store = try invocation.openStore()
        guard try store.user(named: name) != nil else { throw StoreError.unknownUser(name) }
        if invocation.parsed.flag("clear") {
            try StoreAdministration.setPIN(store, user: name, pin: nil)
            invocation.emit("Cleared \(Printable.escaped(name))'s PIN.", json: ["user": .string(name), "hasPIN": false])
            return .ok
        }
        let pin = try SecretPrompt.new(invocation, option: "pin", what: "PIN", for: name, rule: .pin)
        try StoreAdministration.setPIN(store, user: name, pin: pin)
        invocation.emit("Set \(Printable.escaped(name))'s PIN.", json: ["user": .string(name), "hasPIN": true])
        return .ok
    }
}
