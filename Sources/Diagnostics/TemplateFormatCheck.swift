import Foundation
import HostMatching
import PrintableText
import TemplateStore

extension DoctorChecks {
    /// `store.template-format`: fingers of an image sensor's store whose template this fpmod's
    /// host matcher refuses (format 1, made by its earlier libfprint-based matcher, above all), said
    /// before the service or a command finds out by building the gallery.
    ///
    /// A problem, not a warning: the matcher builds one gallery of every finger and refuses it
    /// whole when one template is unusable, so the service's reader does not start and identify
    /// fails for every finger, not only theirs (and enrolling is refused too) until those fingers
    /// are deleted. A lock that opens for no finger is as broken as one with a missing store key,
    /// which is a problem too.
    static func templateFormat(_ facts: StoreFacts) -> DoctorCheck {
        let id = "store.template-format", title = "Template format"
        switch facts.hostTemplates {
        case .notSurveyed(let reason):
            return DoctorCheck(id, title, .skipped, reason)
        case .surveyed(let fingers, let unusable) where unusable.isEmpty:
            if fingers == 0 { return DoctorCheck(id, title, .ok, "An image sensor's store, no fingers enrolled yet.") }
            return DoctorCheck(id, title, .ok, "All \(fingers) finger\(fingers == 1 ? "" : "s") of the image sensor's store in template format "
                               + "\(HostTemplate.currentFormat), which this fpmod's matcher reads.")
        case .surveyed(let fingers, let unusable):
            let seen = "\(unusable.count) of \(fingers) finger\(fingers == 1 ? "" : "s") cannot be used by this fpmod's matcher: "
                + unusable.map(describe).joined(separator: "; ")
                + ". While \(unusable.count == 1 ? "it is" : "they are") in the store, the matcher refuses the whole gallery: "
                + "no finger opens the door and enrolling is refused."
            var fix = "On the image sensor, delete \(unusable.count == 1 ? "it" : "each") and enroll it again (delete first: enrolling is refused until then): "
                + unusable.map(reenrollCommands).joined(separator: "; ") + "."
            if unusable.contains(where: { if case .undecryptable = $0.reason { true } else { false } }) {
                fix += " A template that cannot be decrypted may also mean the key is not this store's: check --key / FPMOD_STORE_KEY first."
            }
            return DoctorCheck(id, title, .problem, seen, fix: fix)
        }
    }

    /// `"alice"'s "right-index" (slot 3, template format 1, made by fpmod's first matcher, …)`:
    /// names quoted and escaped as the other store checks show them.
    private static func describe(_ finger: UnusableTemplate) -> String {
        let why = switch finger.reason {
        case .olderFormat(let format): "template format \(format), \(HostTemplate.olderFormats[format] ?? "made by an earlier fpmod")"
        case .otherFormat(let format): "template format \(format), which this fpmod does not know"
        case .notAHostTemplate: "not an image sensor's template (a module's, or damaged)"
        case .undecryptable(let message): "cannot be decrypted: \(Printable.escaped(message))"
        }
        return "\(NameError.shown(finger.user))'s \(NameError.shown(finger.label)) (slot \(finger.slot), \(why))"
    }

    /// `` `fpmod delete alice --finger right-index`, then `fpmod enroll alice --finger right-index` ``
    /// (with --duress for a duress finger; the user, and with it an admin role, stays).
    private static func reenrollCommands(_ finger: UnusableTemplate) -> String {
        let user = commandWord(finger.user), label = commandWord(finger.label)
        let enroll = finger.isDuress ? "`fpmod enroll \(user) --finger \(label) --duress`" : "`fpmod enroll \(user) --finger \(label)`"
        return "`fpmod delete \(user) --finger \(label)`, then " + enroll
    }

    /// A name as a shell word: as it is when it holds only characters a shell leaves alone, else
    /// single-quoted, control characters written visibly (such a name cannot be typed anyway).
    static func commandWord(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "._@+-:,=%/".unicodeScalars.contains(scalar))
        }
        if plain { return text }
        return "'" + Printable.escaped(text).replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
