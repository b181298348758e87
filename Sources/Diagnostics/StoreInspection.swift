import Administration
import Foundation
import TemplateStore

extension SystemFacts {
    /// The store's files, pairing and pending operations, read without changing anything: a
    /// missing key is reported, not created. `describe` words an opening error as the CLI does.
    public static func store(databasePath: String, keyPath: String, describe: (any Error) -> String) -> StoreFacts {
        var facts = StoreFacts(databasePath: databasePath, keyPath: keyPath)
        facts.database = node(databasePath)
        facts.directory = node((databasePath as NSString).deletingLastPathComponent)
        facts.key = node(keyPath)
        guard facts.database != nil else {
            facts.pairing = .unknown(reason: "no store yet.")
            return facts
        }
        guard facts.key != nil else {
            // Opening would create a new key; the doctor must not change anything.
            facts.pairing = .unknown(reason: "the key file is missing, so the pairing cannot be read.")
            return facts
        }
        facts.readOnly = TemplateStore.readOnlyReason(databasePath: databasePath)
        do {
            let store = try TemplateStore(readingOnly: databasePath, keyPath: keyPath)
            let identity = try store.moduleIdentity()
            if let identity {
                let date = ISO8601DateFormatter.string(from: identity.pairedAt, timeZone: .current, formatOptions: [.withFullDate])
                facts.pairing = .paired(family: identity.family, address: identity.address, pairedAt: date)
            } else {
                facts.pairing = .none
            }
            let unfinishable = try PendingIntents.unfinishableEnrolls(in: store, capacity: identity?.capacity)
            facts.pendingOperations = try store.pendingIntents().map { intent in
                PendingIntents.summary(intent) + ": " + PendingIntents.forecast(intent, unfinishable: unfinishable[intent.id])
            }
        } catch {
            facts.openError = describe(error)
            facts.pairing = .unknown(reason: "the store could not be opened.")
        }
        return facts
    }
}
