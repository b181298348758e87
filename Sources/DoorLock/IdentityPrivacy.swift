/// How much of an enrolled user's name a surface shows (`privacy.identity`): the whole name,
/// the first and last letter (`a***e`, as a lock screen shows `151****1234`), or nothing.
/// Surfaces a passer-by or a third party can read (MQTT, the journal) default to `masked`.
public enum IdentityPrivacy: String, Sendable, Equatable, CaseIterable {
    case full, masked, none

    /// The name as this setting shows it; nil when nothing may be shown. The stars are always
    /// three, so the mask does not tell the name's length either; one- and two-letter names keep
    /// only their first letter, since first and last would be the whole name.
    public func show(_ name: String) -> String? {
        switch self {
        case .full: return name
        case .none: return nil
        case .masked:
            guard let first = name.first else { return "" }
            guard name.count > 2, let last = name.last else { return "\(first)***" }
            return "\(first)***\(last)"
        }
    }
}

extension IdentityPrivacy {
    /// `text` with every whole-word `name` in it shown this way (`none`: "someone"), for free
    /// text that names a user, such as an admin command's error. Whole words only, so a short
    /// name does not eat the letters of other words.
    public func redact(_ text: String, name: String) -> String {
        guard self != .full, !name.isEmpty else { return text }
        let replacement = show(name) ?? "someone"
        let isNamePart: (Character) -> Bool = { $0.isLetter || $0.isNumber || "._-@".contains($0) }
        var result = ""
        var rest = Substring(text)
        while let range = rest.range(of: name) {
            let before = range.lowerBound == rest.startIndex ? result.last : rest[rest.index(before: range.lowerBound)]
            var after = rest[range.upperBound...].first
            // A full stop ends a sentence unless a name goes on after it ("al." vs "al.b").
            if after == ".", !(rest[range.upperBound...].dropFirst().first.map(isNamePart) ?? false) { after = nil }
            result += rest[..<range.lowerBound]
            let whole = !(before.map(isNamePart) ?? false) && !(after.map(isNamePart) ?? false)
            result += whole ? replacement : String(rest[range])
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

extension LockEvent {
    /// The fields that hold an enrolled user's name.
    static let nameFields = ["user"]

    /// This event as a surface with `privacy` may show it: the name fields shown that way
    /// (left out for `none`), and those names redacted in the other fields' text (an error's
    /// reason may name the user).
    public func shown(_ privacy: IdentityPrivacy) -> LockEvent {
        guard privacy != .full else { return self }
        var copy = self
        for key in Self.nameFields {
            guard let name = fields[key] else { continue }
            copy.fields[key] = privacy.show(name)
            for (other, text) in copy.fields where !Self.nameFields.contains(other) {
                copy.fields[other] = privacy.redact(text, name: name)
            }
        }
        return copy
    }
}
