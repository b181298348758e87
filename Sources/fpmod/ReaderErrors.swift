import Administration
import ArgumentParsing
import HostReader

// Exit codes of the errors only the image-sensor path raises, by kind of problem as for a
// module (docs/cli.md, "Exit codes"): fingers of the other kind of reader are data this reader
// cannot use (65, as templates of another module family); a full library is a refusal (1);
// a capture to repeat is "try again" (75).

extension HostReaderError: CLIError {
    public var exitCode: ExitCode {
        switch self {
        case .storeBelongsToModule, .damagedTemplate, .backupFromModule, .unreadableBackupTemplate, .olderTemplate: return .dataError
        case .libraryFull: return .denied
        case .enrollFailed, .fingerNotLifted, .differentFingers: return .tryLater
        case .closed: return .ioError
        }
    }
    public var message: String { description }
}

extension StoreKindError: CLIError {
    public var exitCode: ExitCode { .dataError }
    public var message: String { description }
}
