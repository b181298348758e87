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
        switch try StoreReaderKind.recorded(in: store) {
        case .module?: throw refuse("it is marked as a module's store")
        case .imageSensor?, nil: break
        }
        if let identity = try store.moduleIdentity() {
            throw refuse("it is paired with a \(identity.family) module")
        }
        if let family = try store.value(forKey: TemplateStore.templateFamilyKey) {
            throw refuse("its templates were made by a \(family) module")
        }
        guard deep else { return }
        for finger in try store.allFingers() where !(try store.template(atSlot: finger.slot)).starts(with: hostTemplateMagic) {
            throw refuse("slot \(finger.slot), \(finger.user)'s \(finger.label), holds a module template")
        }
    }
}
