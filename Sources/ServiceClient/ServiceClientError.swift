/// Why the running service could not be reached or refused a command, with what to do. The
/// kind says which exit status (or HTTP status) a front end gives it.
public struct ServiceClientError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable {
        /// The named configuration does not load.
        case config
        /// The control socket is not open to this user.
        case permission
        /// The conversation broke, or the reply was not the protocol's.
        case io
        /// The service is busy, or holds what the command needs.
        case tryLater
        /// No service runs.
        case unavailable
        /// The service refused: the request was malformed, or not allowed.
        case usage, denied
    }

    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
