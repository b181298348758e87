import TemplateStore

/// What the console's account rules refuse. Each description names the problem and the fix;
/// `status` is the HTTP status the API answers with (docs/console-api.md).
public enum ConsoleAuthError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidName(NameError)
    case weakPassword(PasswordError)
    /// An account exists already: setup is over.
    case alreadySetUp
    /// No setup code was issued (or it was used).
    case noSetupCode
    case wrongSetupCode
    case setupCodeExpired
    /// The last admin cannot be deleted or lose its role: nobody could manage the console then.
    case lastAdmin(String)

    public var description: String {
        switch self {
        case .invalidName(let error): error.description
        case .weakPassword(let error): error.description
        case .alreadySetUp: "the console is set up already; log in, or ask an admin for an account"
        case .noSetupCode: "there is no setup code; run `fpmod console setup-code` on the lock and type the code it prints"
        case .wrongSetupCode: "that is not the setup code; type the code that `fpmod console setup-code` printed (or run it again for a new one)"
        case .setupCodeExpired: "the setup code has expired; run `fpmod console setup-code` on the lock again for a new one"
        case .lastAdmin(let name): "\(name) is the only admin; add another admin first"
        }
    }

    public var status: Int {
        switch self {
        case .invalidName, .weakPassword: 400
        case .alreadySetUp, .lastAdmin: 409
        case .noSetupCode, .wrongSetupCode, .setupCodeExpired: 403
        }
    }
}
