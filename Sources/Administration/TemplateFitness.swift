import TemplateStore

/// Which stored templates the module last seen cannot use (another family's template size), for
/// `fpmod list`, which answers from the store alone. The module's template size is recorded by
/// every CLI command that opened it (`Administrator.recordModuleTemplateFormat`).
public enum TemplateFitness {
    /// The slots, and the note `fpmod list` prints under its table (nil when all fit).
    public static func unusableSlots(_ store: TemplateStore) throws -> (slots: Set<Int>, note: String?) {
        guard let recorded = try store.value(forKey: Administrator.moduleTemplateSizeKey), let size = Int(recorded) else {
            return ([], nil)
        }
        var slots: Set<Int> = []
        var sizes: Set<Int> = []
        for finger in try store.allFingers() {
            let bytes = try store.template(atSlot: finger.slot).count
            if bytes != size {
                slots.insert(finger.slot)
                sizes.insert(bytes)
            }
        }
        guard !slots.isEmpty else { return ([], nil) }
        let family = try store.value(forKey: Administrator.moduleFamilyKey).map { "the \($0) module" } ?? "the module"
        let note = "✘ \(slots.count) finger(s) hold templates of \(sizes.sorted().map(String.init).joined(separator: "/")) bytes, "
            + "but \(family) last used makes \(size)-byte templates: they can never match there. "
            + "Re-enroll those users on this module (`fpmod delete NAME`, then `fpmod enroll NAME`), or attach the module they were enrolled on."
        return (slots, note)
    }
}
