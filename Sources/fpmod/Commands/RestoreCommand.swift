import Administration
import ArgumentParsing
import Foundation
import TemplateStore

/// `fpmod restore FILE [--yes]`: into the store and the module (or, on an image sensor, into its
/// store alone), every template read back.
enum RestoreCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let path = try invocation.parsed.require("file")
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(.ioError, "Cannot read \(path): check the file name and its permissions.")
        }
        let passphrase = try SecretPrompt.existing(invocation, option: "passphrase", what: "backup passphrase")
        // Opened (and checked) before the module is touched: a wrong passphrase changes nothing.
        let contents = try TemplateStore.importBackup(Array(data), passphrase: passphrase)
        let (_, session) = try AdminCommand.openReader(invocation, createStore: true)
        defer { session.close() }
        let result = try session.reader.restore(contents, replacing: invocation.parsed.flag("yes"))
        let checked = session.choice.isImageSensor ? "written to the store and read back for the host library" : "written and verified in the module"
        invocation.emit("Restored \(result.users) user(s) and \(result.cards) card(s); \(result.slotsVerified.count) template(s) \(checked).",
                        json: ["users": .int(Int64(result.users)), "cards": .int(Int64(result.cards)),
                               "slotsVerified": .array(result.slotsVerified.map { .int(Int64($0)) })])
        return .ok
    }
}
