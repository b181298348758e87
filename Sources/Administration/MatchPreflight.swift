import TemplateStore

/// What identify and verify check before anybody is asked for a finger: that the user exists
/// and has fingers, and that the module holds the templates the store says it should. A module
/// that lost them (replaced, wiped, reset) is out of step with the store, which `fpmod sync`
/// fixes; without this, a placed finger would only earn "nobody is enrolled". An image sensor's
/// library is the store itself, so only the user is checked there.
public enum MatchPreflight {
    /// The module holds none of the fingers the store says it should: `fpmod sync` fixes it.
    public struct OutOfStep: Error, Equatable, Sendable, CustomStringConvertible {
        /// Whose fingers, in words: "alice's 2 finger(s)".
        public let whose: String
        public init(whose: String) { self.whose = whose }
        public var description: String {
            "The module holds none of \(whose): it is out of step with the store (replaced, wiped or reset). "
                + "Run `fpmod sync` to write them to the module, then try again."
        }
    }

    public static func check(_ store: TemplateStore, _ reader: any FingerprintReader, user: String?) throws {
        if let user {
            guard try store.user(named: user) != nil else { throw StoreError.unknownUser(user) }
            guard try !store.fingers(of: user).isEmpty else { throw AdministrationError.noFingersEnrolled(user: user) }
        }
        guard let administrator = reader as? Administrator else { return }
        let stored = try user.map { try store.fingers(of: $0) } ?? store.allFingers()
        guard !stored.isEmpty else { return }
        let occupied = try administrator.module.readIndexTable().occupied
        let missing = stored.filter { !occupied.contains($0.slot) }
        guard missing.count == stored.count else { return }
        let whose = user.map { "\($0)'s \(stored.count) finger(s)" }
            ?? "the \(stored.count) finger(s) the store has (\(Set(stored.map(\.user)).sorted().joined(separator: ", ")))"
        throw OutOfStep(whose: whose)
    }
}
