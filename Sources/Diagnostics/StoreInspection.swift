import Administration
import Foundation
import HostMatching
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
            facts.hostTemplates = .notSurveyed(reason: "no store yet.")
            return facts
        }
        guard facts.key != nil else {
            // Opening would create a new key; the doctor must not change anything.
            facts.pairing = .unknown(reason: "the key file is missing, so the pairing cannot be read.")
            facts.hostTemplates = .notSurveyed(reason: "the key file is missing, so the templates cannot be read.")
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
            facts.hostTemplates = hostTemplates(in: store, paired: identity != nil, describe: describe)
        } catch {
            facts.openError = describe(error)
            facts.pairing = .unknown(reason: "the store could not be opened.")
            facts.hostTemplates = .notSurveyed(reason: "the store could not be opened.")
        }
        return facts
    }

    /// On a store marked as an image sensor's, each finger's template format as the host matcher
    /// would see it. Each template is decrypted as a gallery build does (the store is opened
    /// read-only, as above), but only its header is read: nothing is decoded. A module's store
    /// is not looked at: its templates are the module's own, matched on the module.
    static func hostTemplates(in store: TemplateStore, paired: Bool, describe: (any Error) -> String) -> HostTemplateSurvey {
        do {
            switch try StoreReaderKind.recorded(in: store) {
            case .imageSensor:
                break
            case .module:
                return .notSurveyed(reason: "a UART module's store: its templates are the module's own.")
            case nil:
                let family = try store.value(forKey: TemplateStore.templateFamilyKey)
                if paired || family != nil {
                    return .notSurveyed(reason: "a UART module's store: its templates are the module's own.")
                }
                if try store.allFingers().isEmpty { return .notSurveyed(reason: "nothing was enrolled on an image sensor yet.") }
                return .notSurveyed(reason: "the store is not marked as an image sensor's (an image sensor marks it when it opens it), "
                                        + "so its templates are taken to be a module's.")
            }
            let fingers = try store.allFingers()
            var unusable: [UnusableTemplate] = []
            for finger in fingers {
                let reason: UnusableTemplate.Reason?
                do {
                    reason = switch HostTemplate(bytes: try store.template(atSlot: finger.slot)).format {
                    case HostTemplate.currentFormat?: nil
                    case let older? where HostTemplate.olderFormats[older] != nil: .olderFormat(older)
                    case let other?: .otherFormat(other)
                    case nil: .notAHostTemplate
                    }
                } catch {
                    reason = .undecryptable(describe(error))
                }
                if let reason {
                    unusable.append(UnusableTemplate(user: finger.user, label: finger.label, slot: finger.slot,
                                                     isDuress: finger.isDuress, reason: reason))
                }
            }
            return .surveyed(fingers: fingers.count, unusable: unusable)
        } catch {
            return .notSurveyed(reason: "the fingers could not be read: \(describe(error))")
        }
    }
}
