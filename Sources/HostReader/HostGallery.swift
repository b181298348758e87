import HostMatching
import TemplateStore

/// The store's fingers ready for 1:N search: the matcher's gallery (cylinders built once, the
/// slow part) and, for each gallery position, the slot it came from. Tagged with the store's
/// enrolled-set digest at build time, so a reader can tell when another process (or another
/// `TemplateStore` instance) enrolled or deleted under it.
struct HostGallery {
    let slots: [Int]
    let gallery: MinutiaeGallery
    let digest: String

    var count: Int { slots.count }

    /// This gallery with one more finger, tagged with the store's digest after its enroll.
    func adding(slot: Int, template: HostTemplate, digest: String) throws -> HostGallery {
        HostGallery(slots: slots + [slot], gallery: try gallery.appending(template), digest: digest)
    }

    /// This gallery without the finger of `slot` (unchanged but re-tagged if it had none).
    func removing(slot: Int, digest: String) -> HostGallery {
        guard let position = slots.firstIndex(of: slot) else { return HostGallery(slots: slots, gallery: gallery, digest: digest) }
        var slots = slots
        slots.remove(at: position)
        return HostGallery(slots: slots, gallery: gallery.removing(at: position), digest: digest)
    }

    /// Every finger of the store. Read in one transaction, so the digest describes exactly the
    /// fingers read. A damaged template is an error naming its slot, never a silently smaller
    /// gallery (a finger that quietly stops matching looks like a broken sensor).
    static func build(from store: TemplateStore) throws -> HostGallery {
        try store.transaction {
            let digest = try store.enrolledSetDigest()
            return try build(fingers: try store.allFingers(), store: store, digest: digest)
        }
    }

    /// Only `fingers` (a user's, for verify).
    static func build(fingers: [Finger], store: TemplateStore, digest: String = "") throws -> HostGallery {
        var templates: [HostTemplate] = []
        for finger in fingers { templates.append(HostTemplate(bytes: try store.template(atSlot: finger.slot))) }
        do {
            return HostGallery(slots: fingers.map(\.slot), gallery: try MinutiaeGallery(templates), digest: digest)
        } catch {
            if case .unreadableTemplate(let index, let message) = error, fingers.indices.contains(index) {
                let finger = fingers[index]
                throw HostReaderError.damagedTemplate(slot: finger.slot, user: finger.user, label: finger.label, reason: message)
            }
            if case .olderTemplateFormat(let index) = error, fingers.indices.contains(index) {
                let finger = fingers[index]
                throw HostReaderError.olderTemplate(slot: finger.slot, user: finger.user, label: finger.label)
            }
            throw error
        }
    }
}
