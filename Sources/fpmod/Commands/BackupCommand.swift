import Administration
import ArgumentParsing
import Foundation
import UserPrompts

/// `fpmod backup FILE [--force]`: the store in one passphrase-encrypted file (no module needed).
enum BackupCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let path = try invocation.parsed.require("file")
        // Everything that can refuse does so before the passphrase is asked for.
        try checkTarget(path, force: invocation.parsed.flag("force"), prompter: invocation.prompter)
        let store = try invocation.openStore()
        let passphrase = try SecretPrompt.new(invocation, option: "passphrase", what: "backup passphrase", rule: .backupPassphrase)
        let written = try StoreAdministration.backup(store, to: path, passphrase: passphrase)
        invocation.emit("Wrote \(written.users) user(s), \(written.fingers) finger(s) and \(written.cards) card(s) to \(path).",
                        json: ["file": .string(path), "users": .int(Int64(written.users)), "fingers": .int(Int64(written.fingers)),
                               "cards": .int(Int64(written.cards))])
        return .ok
    }

    /// An existing file is an older backup somebody may still need: replaced only with --force or
    /// a "yes" typed on the terminal. A missing directory is named before any work is done.
    private static func checkTarget(_ path: String, force: Bool, prompter: some Prompter) throws {
        var isDirectory: ObjCBool = false
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) || !isDirectory.boolValue {
            throw CommandFailure(.ioError, "Cannot write \(path): the directory \(directory) does not exist. Create it or choose another path.")
        }
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
        if isDirectory.boolValue {
            throw CommandFailure(.usage, "\(path) is a directory; give the backup a file name, e.g. \(path)/fpmod.backup.")
        }
        if force { return }
        let refusal = CommandFailure(.usage, "\(path) already exists; nothing was written. Pass --force to replace it, or choose another file name.")
        // Nobody to ask (a script): the command line decides, and it did not say --force.
        let replace = try prompter.confirm(.confirmation(key: "replace", prompt: "\(path) already exists. Replace it?", default: false))
        guard replace == true else { throw refusal }
    }
}
