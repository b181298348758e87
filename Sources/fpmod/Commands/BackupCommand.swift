import Administration
import ArgumentParsing

/// `fpmod backup FILE`: the store in one passphrase-encrypted file (no module needed).
enum BackupCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let path = try invocation.parsed.require("file")
        let store = try invocation.openStore()
        let passphrase = try AdminCommand.secret(invocation, option: "passphrase", prompt: "Backup passphrase:")
        let written = try StoreAdministration.backup(store, to: path, passphrase: passphrase)
        invocation.emit("Wrote \(written.users) user(s) and \(written.fingers) finger(s) to \(path).",
                        json: ["file": .string(path), "users": .int(Int64(written.users)), "fingers": .int(Int64(written.fingers))])
        return .ok
    }
}
