import FingerprintModule
import FingerprintProtocol
import TemplateStore

/// Whether templates made by one module can be used by the module attached. A template is the
/// module's own feature format: another family's (or another size's) downloads without an
/// error, but reads back different and never matches a finger. So a restore or sync checks the
/// templates against the module first, and refuses before writing anything.
extension Administrator {
    /// The kv keys where the last module seen is recorded, so `fpmod list` (no module) can mark
    /// the fingers whose templates that module cannot use.
    public static let moduleFamilyKey = TemplateStore.moduleFamilyKey
    public static let moduleTemplateSizeKey = TemplateStore.moduleTemplateSizeKey

    /// The template size the attached module makes and accepts: learned (product info or an
    /// upload), else its family's.
    public var moduleTemplateSize: Int? {
        module.templateSize ?? module.family?.profile.templateSize
    }

    /// Remembers the attached module's family, template size and capacity in the store.
    public func recordModuleTemplateFormat() throws {
        if let family = module.family?.rawValue, try store.value(forKey: Self.moduleFamilyKey) != family {
            try store.setValue(family, forKey: Self.moduleFamilyKey)
        }
        if let size = moduleTemplateSize, try store.value(forKey: Self.moduleTemplateSizeKey) != String(size) {
            try store.setValue(String(size), forKey: Self.moduleTemplateSizeKey)
        }
        if let capacity = module.capacity, capacity > 0, try store.value(forKey: TemplateStore.moduleCapacityKey) != String(capacity) {
            try store.setValue(String(capacity), forKey: TemplateStore.moduleCapacityKey)
        }
    }

    /// Refuses templates this module cannot use: another family's (when both are known) or of
    /// another size. `holder` names where they come from ("this backup", "the store").
    func checkTemplatesFit(_ templates: [(slot: Int, bytes: Int)], family: String?, holder: String) throws {
        let moduleFamily = module.family?.rawValue
        let sizes = Set(templates.map(\.bytes)).sorted()
        let expected = moduleTemplateSize
        let familyDiffers = family != nil && moduleFamily != nil && family != moduleFamily
        let sizeDiffers = expected.map { size in sizes.contains { $0 != size } } ?? false
        guard familyDiffers || sizeDiffers else { return }
        if familyDiffers, !sizeDiffers, let family, let moduleFamily {
            throw AdministrationError.familyMismatch(backup: family, module: moduleFamily)
        }
        let slots = templates.filter { expected != nil && $0.bytes != expected }.map(\.slot)
        throw AdministrationError.templatesDoNotFit(
            holder: holder, family: family, sizes: sizes, moduleFamily: moduleFamily ?? "unknown",
            moduleTemplateSize: expected, slots: familyDiffers ? templates.map(\.slot) : slots)
    }

    /// The store's templates against the attached module, before `sync` writes any of them.
    func checkStoreTemplatesFit() throws {
        var templates: [(slot: Int, bytes: Int)] = []
        for finger in try store.allFingers() {
            templates.append((finger.slot, try store.template(atSlot: finger.slot).count))
        }
        let family = try store.moduleIdentity()?.family ?? store.value(forKey: TemplateStore.templateFamilyKey)
        try checkTemplatesFit(templates, family: family, holder: "the store")
    }
}
