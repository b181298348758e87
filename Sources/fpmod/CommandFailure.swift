import ArgumentParsing
import Benchmarks
import FingerprintModule
import ModuleSimulator
import Provisioning
import SerialPort
import TemplateStore
import UserPrompts

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

/// Maps any error a command lets escape to an exit code (sysexits, architecture.md) and text.
enum ErrorReport {
    static func exitCode(for error: any Error) -> ExitCode {
        switch error {
        case let error as any CLIError: return error.exitCode
        case let error as ModuleError: return exitCode(for: error)
        case let error as SerialPortError: return exitCode(for: error)
        case let error as StoreError: return exitCode(for: error)
        case is SimulatorError: return .unavailable
        case let error as BenchError:
            switch error.kind {
            case .usage: return .usage
            case .data: return .dataError
            case .io: return .ioError
            }
        case let error as SetupError:
            switch error.kind {
            case .usage: return .usage
            case .config: return .config
            case .permission: return .permission
            case .unavailable: return .unavailable
            case .io: return .ioError
            }
        // A question left without an answer: what to give is the command line's to say.
        case is PromptError: return .usage
        default: return .ioError
        }
    }

    static func exitCode(for error: ModuleError) -> ExitCode {
        switch error {
        case .transport(let underlying): return exitCode(for: underlying)
        case .timeout, .noAnswer: return .unavailable
        case .corruptedReply, .wrongAddress, .unexpectedPacket: return .ioError
        case .unsupported: return .unavailable
        case .module(_, let code, _):
            // Any other confirmation code is the device failing the request (flash, packet, …).
            return code == .wrongPassword || code == .passwordRequired ? .permission : .ioError
        case .invalidArgument: return .usage
        }
    }

    static func exitCode(for error: SerialPortError) -> ExitCode {
        switch error {
        case .noSuchDevice, .notATerminal, .notAUART: return .unavailable
        case .permissionDenied: return .permission
        case .busy: return .tryLater
        case .unsupportedBaudRate: return .usage
        case .disconnected, .io: return .ioError
        }
    }

    static func exitCode(for error: StoreError) -> ExitCode {
        switch error {
        case .unknownUser, .unknownSlot, .invalidSlot: return .usage
        case .duplicateUser, .slotTaken, .fingerLabelTaken: return .denied
        case .missingKey, .wrongKey, .badKeyFile, .noStore: return .config
        case .keyFileExposed: return .permission
        case .busy: return .tryLater
        // A read-only mount cannot be written by anyone (I/O); permissions are a matter of who runs it.
        case .readOnly(_, _, let fileSystem): return fileSystem ? .ioError : .permission
        case .fileSystem: return .ioError
        case .backupEmptyPassphrase: return .usage
        case .backupWrongPassphrase, .backupCorrupted, .backupNotABackup, .backupUnsupportedVersion,
             .notADatabase, .newerSchema, .undecryptable:
            return .dataError
        default: return .ioError
        }
    }

    static func message(for error: any Error) -> String {
        switch error {
        case let error as any CLIError: return error.message
        case let error as CustomStringConvertible: return error.description
        default: return "\(error)"
        }
    }
}
