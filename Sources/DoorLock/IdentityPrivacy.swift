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
