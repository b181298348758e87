import PrintableText
/// Why a host reader (image sensor + host matcher + store) refused or failed. Errors of the
/// sensor (`ImageSensorError`), the matcher (`HostMatchingError`), the store (`StoreError`) and
/// the shared ones of `AdministrationError` (duplicate finger, cancelled…) pass through as they are.
public enum HostReaderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The store belongs to a UART module: paired with one, marked so, or holding module templates.
    case storeBelongsToModule(databasePath: String, reason: String)
    /// Every host slot 0..<capacity holds a finger.
    case libraryFull(capacity: Int)
    /// A stored finger's template cannot be read as a host template.
    case damagedTemplate(slot: Int, user: String, label: String, reason: String)
    /// A backup to restore holds a UART module's templates (`reason` says how that is known).
    case backupFromModule(reason: String)
    /// A backup's template cannot be read as a host template.
    case unreadableBackupTemplate(slot: Int, user: String, label: String, reason: String)
    /// The sensor showed a finger, but the captures could not be merged into a template.
    case enrollFailed(reason: String)
    /// The finger stayed on the sensor between two enroll captures until the timeout.
    case fingerNotLifted
    /// Two groups of an enrollment's touches (numbered from 1) matched within, never across.
    case differentFingers(first: [Int], second: [Int])
    /// A stored finger's template was made by one of fpmod's earlier matchers (`HostTemplate.olderFormats`).
    case olderTemplate(slot: Int, user: String, label: String)
    /// `close()` was called; the reader has no sensor any more.
    case closed

    public var description: String {
        switch self {
        case let .storeBelongsToModule(path, reason):
            "the store \(path) belongs to a UART fingerprint module (\(reason)); an image sensor cannot use its fingers, "
                + "and nothing was changed. Use a separate store for the image sensor (--store PATH, or `store` in the config)"
        case let .libraryFull(capacity):
            "enroll-data-full: all \(capacity) host slots hold fingers; nothing was changed. Delete unused fingers (`fpmod list`, `fpmod delete`) first"
        case let .damagedTemplate(slot, user, label, reason):
            "the template of \(user)'s \(label) (slot \(slot)) cannot be read as a host template (\(reason)); "
                + "nothing is matched until it is fixed. Delete that finger (`fpmod delete \(user) --finger \(label)`) and enroll it again"
        case let .backupFromModule(reason):
            "this backup is of a UART module's store (\(reason)); an image sensor cannot match a module's templates, so nothing was changed. "
                + "Restore it onto a module of that family (`fpmod restore FILE --port PATH`, into the module's own store), or re-enroll the users on the image sensor (`fpmod enroll NAME`)"
        case let .unreadableBackupTemplate(slot, user, label, reason):
            "the backup's template of \(user)'s \(label) (slot \(slot)) cannot be read as a host template (\(reason)); the file may be damaged, "
                + "and nothing was changed. Restore an older backup, or re-enroll that finger after restoring without it"
        case let .enrollFailed(reason):
            "enroll-failed: \(reason); nothing was changed. Start again, pressing the whole fingertip flat for each capture"
        case let .differentFingers(first, second):
            "enroll-failed: touches \(Self.list(first)) and touches \(Self.list(second)) look like two different fingers; nothing was changed. "
                + "Start again and use the same finger for every touch"
        case let .olderTemplate(slot, user, label):
            "\(Printable.escaped(user))'s \(Printable.escaped(label)) (slot \(slot)) was enrolled with an earlier fpmod matcher, whose templates this version "
                + "does not read; it cannot match until it is enrolled again: `fpmod delete \(Printable.escaped(user)) --finger \(Printable.escaped(label))`, then `fpmod enroll \(Printable.escaped(user)) --finger \(Printable.escaped(label))`"
        case .fingerNotLifted:
            "the finger was not lifted between two captures in time; nothing was changed. Start again, lifting the finger off the sensor after each capture"
        case .closed:
            "the image sensor reader was closed; open it again"
        }
    }

    private static func list(_ touches: [Int]) -> String {
        touches.count == 1 ? String(touches[0]) : touches.dropLast().map(String.init).joined(separator: ", ") + " and \(touches[touches.count - 1])"
    }
}
