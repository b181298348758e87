import ArgumentParsing
import ImageSensor
import ReaderSessions
import ServiceAssembly
import ServiceClient

/// The exit codes of a reader that could not be opened: the options' contradictions and gaps.
extension ReaderSessionError: CLIError {
    public var exitCode: ExitCode {
        switch kind {
        case .usage: .usage
        case .config: .config
        case .unavailable: .unavailable
        }
    }
    public var message: String { description }
}

/// Sensor errors escaping a command (`fpmod sensor`, a capture through the host reader).
extension ImageSensorError: CLIError {
    public var exitCode: ExitCode {
        switch self {
        case let .spi(spi):
            switch spi {
            case .noSuchDevice, .notSPIDevice: return .unavailable
            case .permissionDenied: return .permission
            case .busy: return .tryLater
            case .messageTooLong, .unsupportedSetting: return .config
            default: return .ioError
            }
        case let .gpio(gpio):
            switch gpio {
            case .permissionDenied: return .permission
            case .chipNotFound, .offsetOutOfRange: return .unavailable
            case .lineBusy: return .tryLater
            default: return .ioError
            }
        case .wrongHardwareID, .noResetInterrupt, .interruptStuck: return .unavailable
        case .noFinger: return .tryLater
        case .noImages, .unreadableImage: return .config
        case .sensorLink: return .unavailable
        case .interruptTimeout, .unexpectedInterrupt, .sensorError: return .ioError
        }
    }
    public var message: String { description }
}

/// The running service unreachable, holding what the command needs, or refusing it.
extension ServiceClientError: CLIError {
    public var exitCode: ExitCode {
        switch kind {
        case .config: .config
        case .permission: .permission
        case .io: .ioError
        case .tryLater: .tryLater
        case .unavailable: .unavailable
        case .usage: .usage
        case .denied: .denied
        }
    }
    public var message: String { description }
}

/// `fpmod run` without a usable configuration.
extension ServiceAssemblyError: CLIError {
    public var exitCode: ExitCode { .config }
    public var message: String { description }
}
