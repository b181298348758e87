/// The status byte a DESFire card ends each answer with (MIFARE DESFire EV1 data sheet, and
/// libfreefare's `mifare_desfire_error.c`), in ISO 7816 wrapping the second byte of `91 xx`.
public enum DESFireStatus: UInt8, Error, Sendable, CaseIterable {
    case ok = 0x00
    case noChanges = 0x0C
    case outOfEEPROM = 0x0E
    case illegalCommand = 0x1C
    case integrityError = 0x1E
    case noSuchKey = 0x40
    case lengthError = 0x7E
    case permissionDenied = 0x9D
    case parameterError = 0x9E
    case applicationNotFound = 0xA0
    case authenticationError = 0xAE
    case additionalFrame = 0xAF
    case boundaryError = 0xBE
    case commandAborted = 0xCA
    case duplicateError = 0xDE
    case fileNotFound = 0xF0

    public var name: String {
        switch self {
        case .ok: "OPERATION_OK"
        case .noChanges: "NO_CHANGES"
        case .outOfEEPROM: "OUT_OF_EEPROM_ERROR"
        case .illegalCommand: "ILLEGAL_COMMAND_CODE"
        case .integrityError: "INTEGRITY_ERROR"
        case .noSuchKey: "NO_SUCH_KEY"
        case .lengthError: "LENGTH_ERROR"
        case .permissionDenied: "PERMISSION_DENIED"
        case .parameterError: "PARAMETER_ERROR"
        case .applicationNotFound: "APPLICATION_NOT_FOUND"
        case .authenticationError: "AUTHENTICATION_ERROR"
        case .additionalFrame: "ADDITIONAL_FRAME"
        case .boundaryError: "BOUNDARY_ERROR"
        case .commandAborted: "COMMAND_ABORTED"
        case .duplicateError: "DUPLICATE_ERROR"
        case .fileNotFound: "FILE_NOT_FOUND"
        }
    }

    /// The name of any status byte, known or not.
    public static func name(of byte: UInt8) -> String {
        DESFireStatus(rawValue: byte)?.name ?? "status 0x" + String(byte, radix: 16, uppercase: true)
    }
}

/// The native DESFire command codes the simulated card answers (libfreefare 0.4.0 sends each
/// wrapped in an ISO 7816 APDU `90 code 00 00 [Lc data] 00`).
public enum DESFireCommand: UInt8, Sendable {
    case authenticateLegacy = 0x0A
    case authenticateISO = 0x1A
    case authenticateAES = 0xAA
    case additionalFrame = 0xAF
    case getKeySettings = 0x45
    case getCardUID = 0x51
    case selectApplication = 0x5A
    case getVersion = 0x60
    case getKeyVersion = 0x64
    case getApplicationIDs = 0x6A
    case freeMemory = 0x6E
    case changeKey = 0xC4
    case createApplication = 0xCA
    case deleteApplication = 0xDA
    case formatPICC = 0xFC
}
