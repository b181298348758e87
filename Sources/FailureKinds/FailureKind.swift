import Administration
import Benchmarks
import FingerprintModule
import HostReader
import HubStore
import ImageSensor
import Keypad
import KeypadInput
import Wiegand
import WiegandInput
import WiegandOutput
import ModuleSimulator
import NFCInput
import PN532Simulator
import Provisioning
import ReaderSessions
import SerialPort
import ServiceAssembly
import ServiceClient
import TemplateStore
import UserPrompts

/// What kind of failure an error is, whichever layer raised it: the CLI turns the kind into a
/// sysexits status (docs/cli.md, "Exit codes"), a console into an HTTP status, the hub into a
/// door's report. By kind of problem only: refused by what is enrolled → denied; templates or
/// files that cannot be used here → data; a device that misbehaves → io; try again → tryLater.
public enum FailureKind: Sendable, Equatable, CaseIterable {
    /// Refused: no match, denied by policy, not possible with what is enrolled.
    case denied
    /// The request was wrong: an option, a name, a value.
    case usage
    /// Input data was malformed or unusable: a corrupt backup, templates this reader cannot use.
    case data
    /// The device or the service is not there or not answering.
    case unavailable
    /// Reading or writing a device or file failed.
    case io
    /// Busy or temporarily failing: the same request later may work.
    case tryLater
    /// Not allowed to this user, or a secret that others can read.
    case permission
    /// The configuration is invalid or incomplete.
    case config

    /// The kind of `error`; anything unknown is an I/O failure.
    public init(of error: any Error) {
        switch error {
        case let error as ModuleError: self = Self.of(error)
        case let error as SerialPortError: self = Self.of(error)
        case let error as StoreError: self = Self.of(error)
        case let error as AdministrationError: self = Self.of(error)
        case let error as HostReaderError: self = Self.of(error)
        case let error as ImageSensorError: self = Self.of(error)
        case let error as ReaderSessionError:
            switch error.kind {
            case .usage: self = .usage
            case .config: self = .config
            case .unavailable: self = .unavailable
            }
        case let error as ServiceClientError:
            switch error.kind {
            case .config: self = .config
            case .permission: self = .permission
            case .io: self = .io
            case .tryLater: self = .tryLater
            case .unavailable: self = .unavailable
            case .usage: self = .usage
            case .denied: self = .denied
            }
        case let error as BenchError:
            switch error.kind {
            case .usage: self = .usage
            case .data: self = .data
            case .io: self = .io
            }
        case let error as SetupError:
            switch error.kind {
            case .usage: self = .usage
            case .config: self = .config
            case .permission: self = .permission
            case .unavailable: self = .unavailable
            case .io: self = .io
            }
        case let error as HubStoreError: self = Self.of(error)
        case let error as KeypadInputError: self = Self.of(error)
        case is KeypadSettingsError: self = .usage
        case let error as WiegandListenerError:
            switch error {
            case .sameLine, .noSuchLine, .noSuchName: self = .usage
            case .gpio(let underlying): self = FailureKind(of: underlying)
            case .system: self = .io
            }
        case is WiegandTimingError, is WiegandEncoderError: self = .usage
        case let error as WiegandSenderError:
            switch error {
            case .sameLine, .noSuchLine, .noSuchName, .encoder: self = .usage
            case .gpio(let underlying): self = FailureKind(of: underlying)
            }
        case let error as NFCError: self = Self.of(error)
        case is PN532SimulatorError: self = .unavailable
        case is ServiceAssemblyError: self = .config
        case is SimulatorError: self = .unavailable
        case is FingerCapture.NoFingerInTime: self = .tryLater
        case is MatchPreflight.OutOfStep: self = .denied
        // A refused user name, finger label or display name, PIN or passphrase: reported before
        // anything is opened or created.
        case is NameError, is StoreAdministration.PINError, is CardNumberError: self = .usage
        // A question left without an answer: what to give is the request's to say.
        case is PromptError: self = .usage
        case is StoreKindError: self = .data
        case is StoreAdministration.BackupWriteError: self = .io
        default: self = .io
        }
    }

    static func of(_ error: HubStoreError) -> FailureKind {
        switch error {
        case .connect, .connectionLost: .unavailable
        case .statement, .unexpectedReply: .io
        // A database at another schema version, an event that contradicts the door's chain.
        case .olderSchema, .newerSchema, .brokenEventChain, .conflictingEvent: .data
        case .unknownDoor, .unknownUser, .invalid: .usage
        case .revokedDoor: .denied
        }
    }

    static func of(_ error: KeypadInputError) -> FailureKind {
        switch error {
        case .notFound, .noneNamed, .gone, .noUinput: .unavailable
        case .permissionDenied: .permission
        case .notAKeypad, .badKeys: .usage
        case .busy: .tryLater
        case .system: .io
        }
    }

    static func of(_ error: NFCError) -> FailureKind {
        switch error {
        case .invalidConnection, .notADevice: .usage
        case .noSuchPort, .noReader, .notAnswering, .closed: .unavailable
        case .inUse: .tryLater
        case .permissionDenied: .permission
        case .garbled, .failed, .noContext, .desfireStatus, .desfireAnswer: .io
        }
    }

    static func of(_ error: ModuleError) -> FailureKind {
        switch error {
        case .transport(let underlying): return FailureKind(of: underlying)
        case .timeout, .noAnswer: return .unavailable
        case .corruptedReply, .wrongAddress, .unexpectedPacket: return .io
        case .unsupported: return .unavailable
        case .module(_, let code, _):
            // Any other confirmation code is the device failing the request (flash, packet, …).
            return code == .wrongPassword || code == .passwordRequired ? .permission : .io
        case .invalidArgument: return .usage
        }
    }

    static func of(_ error: SerialPortError) -> FailureKind {
        switch error {
        case .noSuchDevice, .notATerminal, .notAUART: return .unavailable
        case .permissionDenied: return .permission
        case .busy: return .tryLater
        case .unsupportedBaudRate: return .usage
        case .disconnected, .io: return .io
        }
    }

    static func of(_ error: StoreError) -> FailureKind {
        switch error {
        case .unknownUser, .unknownSlot, .invalidSlot, .unknownCard, .unknownSchedule, .unknownHoliday, .invalidValidity,
             .unknownConsoleAccount, .unknownConsoleToken: return .usage
        case .duplicateUser, .slotTaken, .fingerLabelTaken, .cardTaken, .cardLabelTaken, .duplicateSchedule, .scheduleInUse,
             .duplicateHoliday, .duplicateConsoleAccount, .duplicateConsoleToken: return .denied
        case .missingKey, .wrongKey, .badKeyFile, .noStore: return .config
        case .keyFileExposed: return .permission
        case .busy: return .tryLater
        // A read-only mount cannot be written by anyone (I/O); permissions are a matter of who runs it.
        case .readOnly(_, _, let fileSystem): return fileSystem ? .io : .permission
        case .fileSystem: return .io
        case .backupEmptyPassphrase: return .usage
        case .backupWrongPassphrase, .backupCorrupted, .backupNotABackup, .backupUnsupportedVersion,
             .backupInvalidName, .backupInvalid, .notADatabase, .newerSchema, .undecryptable:
            return .data
        default: return .io
        }
    }

    static func of(_ error: AdministrationError) -> FailureKind {
        switch error {
        case .duplicateFinger, .fingerAlreadyEnrolled, .libraryFull: return .denied
        case .familyMismatch, .templatesDoNotFit, .backupDoesNotFit, .backupFromImageSensor: return .data
        case .verificationFailed: return .io
        case .noFingerPlaced, .capturesDiffer, .cancelled: return .tryLater
        case .noFingersEnrolled, .unknownFinger, .invalidCaptureCount, .restoreNeedsConfirmation, .alreadyPaired: return .usage
        case .verificationRequired, .notPaired: return .denied
        case .untrustedModule: return .permission
        case .interrupted: return .io
        }
    }

    /// The image-sensor path's own: fingers of the other kind of reader are data this reader
    /// cannot use (as templates of another module family); a full library is a refusal; a
    /// capture to repeat is "try again".
    static func of(_ error: HostReaderError) -> FailureKind {
        switch error {
        case .storeBelongsToModule, .damagedTemplate, .backupFromModule, .unreadableBackupTemplate, .olderTemplate: return .data
        case .libraryFull: return .denied
        case .enrollFailed, .fingerNotLifted, .differentFingers: return .tryLater
        case .closed: return .io
        }
    }

    static func of(_ error: ImageSensorError) -> FailureKind {
        switch error {
        case let .spi(spi):
            switch spi {
            case .noSuchDevice, .notSPIDevice: return .unavailable
            case .permissionDenied: return .permission
            case .busy: return .tryLater
            case .messageTooLong, .unsupportedSetting: return .config
            default: return .io
            }
        case let .gpio(gpio):
            switch gpio {
            case .permissionDenied: return .permission
            case .chipNotFound, .offsetOutOfRange: return .unavailable
            case .lineBusy: return .tryLater
            default: return .io
            }
        case .wrongHardwareID, .noResetInterrupt, .interruptStuck: return .unavailable
        case .noFinger: return .tryLater
        case .noImages, .unreadableImage: return .config
        case .sensorLink: return .unavailable
        case .interruptTimeout, .unexpectedInterrupt, .sensorError: return .io
        }
    }
}
