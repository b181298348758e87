/// Why setup stopped, with what to do. Errors of the parts underneath (names refused, a finger
/// already enrolled, the store, the module) pass through unchanged; front ends map both to
/// their own codes.
public struct SetupError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// An answer or a setting that cannot be used.
        case usage
        /// The configuration it would lead to is not valid.
        case config
        /// This user may not create what setup makes.
        case permission
        /// No module to set up.
        case unavailable
        /// A file could not be written.
        case io
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
