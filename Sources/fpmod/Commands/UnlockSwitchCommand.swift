import Administration
import ArgumentParsing
import PrintableText
import TemplateStore

/// `fpmod enable|disable NAME`: the per-user fingerprint-unlock switch. Like a phone's, it
/// changes only after a finger of that user or of an admin is verified (1:N identify).
enum UnlockSwitchCommand {
    static func enable(_ invocation: Invocation) throws -> ExitCode { try run(invocation, enabled: true) }
    static func disable(_ invocation: Invocation) throws -> ExitCode { try run(invocation, enabled: false) }

    static func run(_ invocation: Invocation, enabled: Bool) throws -> ExitCode {
        let name = try invocation.parsed.require("name")
        try AdminCommand.requireSimFinger(invocation)
        let (store, session) = try AdminCommand.openReader(invocation)
        defer { session.close() }
        guard try store.user(named: name) != nil else { throw StoreError.unknownUser(name) }
        let shown = Printable.escaped(name)
        invocation.progress("To change fingerprint unlock for \(shown), place a finger of \(shown) or of an admin")
        let outcome = try session.reader.identify()
        guard let proof = session.reader.verification(from: outcome) else {
            _ = AdminCommand.report(outcome, invocation)
            throw AdministrationError.verificationRequired(user: name)
        }
        try StoreAdministration.setFingerprintUnlock(store, user: name, enabled: enabled, verifiedBy: proof)
        invocation.emit("Fingerprint unlock for \(shown) is now \(enabled ? "on" : "off") (verified by \(Printable.escaped(proof.user))).",
                        json: ["user": .string(name), "fingerprintUnlock": .bool(enabled), "verifiedBy": .string(proof.user)])
        return .ok
    }
}
