import ArgumentParsing
import FailureKinds

/// A failure a command reports itself, with its exit code and a message that says what to do.
struct CommandFailure: CLIError, CustomStringConvertible {
    let exitCode: ExitCode
    let message: String
    init(_ exitCode: ExitCode, _ message: String) {
        self.exitCode = exitCode
        self.message = message
    }
    var description: String { message }
}

/// Maps any error a command lets escape to an exit code (sysexits, architecture.md) and text:
/// the CLI's own failures carry their code, every library error its `FailureKind`.
enum ErrorReport {
    static func exitCode(for error: any Error) -> ExitCode {
        if let error = error as? any CLIError { return error.exitCode }
        return ExitCode(FailureKind(of: error))
    }

    static func message(for error: any Error) -> String {
        switch error {
        case let error as any CLIError: return error.message
        case let error as CustomStringConvertible: return error.description
        default: return "\(error)"
        }
    }
}

extension ExitCode {
    /// The sysexits status of a kind of failure.
    init(_ kind: FailureKind) {
        switch kind {
        case .denied: self = .denied
        case .usage: self = .usage
        case .data: self = .dataError
        case .unavailable: self = .unavailable
        case .io: self = .ioError
        case .tryLater: self = .tryLater
        case .permission: self = .permission
        case .config: self = .config
        }
    }
}
