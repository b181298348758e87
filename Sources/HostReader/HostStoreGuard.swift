import Administration
import TemplateStore

/// Keeps a host reader off a module's store: a module's slots are its flash pages and its
/// templates its own feature bytes, so a host reader would hand out slots the module owns and
/// never match a module template (and `fpmod sync` would write libfprint prints into flash).
enum HostStoreGuard {
    /// The header of every host template (`TemplateEnvelope` in HostMatching, internal there):
    /// a module template never starts with it.
    static let hostTemplateMagic = Array("FPMH".utf8)

    /// Throws `HostReaderError.storeBelongsToModule` when anything says the store is a module's.
    /// `deep`: also looks at every stored template (only needed while the store carries no mark).
    static func check(_ store: TemplateStore, deep: Bool) throws {
        func refuse(_ reason: String) -> HostReaderError {
            .storeBelongsToModule(databasePath: store.databasePath, reason: reason)
        }
        if let reason = moduleReason(kind: try store.value(forKey: StoreReaderKind.key), family: nil) { throw refuse(reason) }
        if let identity = try store.moduleIdentity() {
            throw refuse("it is paired with a \(identity.family) module")
        }
        if let reason = moduleReason(kind: nil, family: try store.value(forKey: TemplateStore.templateFamilyKey)) { throw refuse(reason) }
        guard deep else { return }
        for finger in try store.allFingers() {
            if let reason = moduleReason(slot: finger.slot, user: finger.user, label: finger.label,
                                         template: try store.template(atSlot: finger.slot)) {
                throw refuse(reason)
            }
        }
    }

    /// Why a kind mark or a module family (of a store, or of a backup) makes the fingers a
    /// module's; nil when neither does.
    static func moduleReason(kind: String?, family: String?) -> String? {
        if kind == ReaderDescription.Kind.module.rawValue { return "it is marked as a module's store" }
        if let family { return "its templates were made by a \(family) module" }
        return nil
    }

    /// Why one finger's template is a module's (it lacks the host header); nil when it is a host one.
    static func moduleReason(slot: Int, user: String, label: String, template: [UInt8]) -> String? {
        template.starts(with: hostTemplateMagic) ? nil : "slot \(slot), \(user)'s \(label), holds a module template"
    }
}
