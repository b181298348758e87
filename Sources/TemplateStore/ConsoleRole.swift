/// What a console account or API token may do. Kept with the store, which holds it (the
/// tables' CHECK takes exactly these raw values).
public enum ConsoleRole: String, CaseIterable, Codable, Sendable {
    /// Everything the console offers.
    case admin
    /// Every page and GET; no state-changing request but its own logout.
    case viewer

    /// Whether a state-changing request (POST) is allowed, logout aside: the handlers let
    /// every role log itself out.
    public var mayChange: Bool { self == .admin }
}
