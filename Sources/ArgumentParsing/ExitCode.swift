// Process exit statuses after BSD sysexits(3), so scripts can tell "no match" from "bad
// usage" from "module unplugged" without parsing text.

/// The exit status of an `fpmod` command.
public enum ExitCode: Int32, Sendable, CaseIterable {
    /// Success.
    case ok = 0
    /// Refused: no match, denied by policy, a `doctor` problem, or not possible with what is
    /// enrolled (finger already enrolled, library full, name taken).
    case denied = 1
    /// The command line was wrong (EX_USAGE).
    case usage = 64
    /// Input data was malformed or unusable: a corrupt backup or store, templates this module
    /// cannot use (EX_DATAERR).
    case dataError = 65
    /// The module or service is not there or not answering (EX_UNAVAILABLE).
    case unavailable = 69
    /// Reading or writing a device or file failed (EX_IOERR).
    case ioError = 74
    /// Busy or temporarily failing; running again later may work (EX_TEMPFAIL).
    case tryLater = 75
    /// Not allowed: wrong module password, no access to the device, a key file others can read (EX_NOPERM).
    case permission = 77
    /// The configuration is invalid or incomplete: the config file, no port given, no store or key
    /// at the configured path (EX_CONFIG).
    case config = 78

    /// Same status as `denied`: "no match" is a denial, not a failure of the tool.
    public static let noMatch: ExitCode = .denied

    /// What the status means, for people: the EXIT STATUS section of the man page.
    public var meaning: String {
        switch self {
        case .ok: "Success."
        case .denied: "The finger was not accepted: no match, denied by the policy, or verification failed."
        case .usage: "The command line was wrong (EX_USAGE)."
        case .dataError: "Input data was malformed: a bad template file, a corrupt backup (EX_DATAERR)."
        case .unavailable: "The module or the service is not there or not answering (EX_UNAVAILABLE)."
        case .ioError: "Reading or writing a device or file failed (EX_IOERR)."
        case .tryLater: "Busy or temporarily failing; running again later may work (EX_TEMPFAIL)."
        case .permission: "Not allowed: wrong module password, no access to the device (EX_NOPERM)."
        case .config: "The configuration file is invalid (EX_CONFIG)."
        }
    }
}

/// An error the command-line tool can report: it knows its exit status and a message for people
/// that says what happened and what to do next.
public protocol CLIError: Error {
    /// The status the process exits with when this error ends it.
    var exitCode: ExitCode { get }
    /// One or more lines for stderr, without a leading "Error:".
    var message: String { get }
}
