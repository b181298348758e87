import PrintableText

/// Everything the template store can refuse or fail at. Each description says what happened
/// and what to do next, so the CLI can print it as is (names and labels escaped, `Printable`).
public enum StoreError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file exists but is not an SQLite database (corrupt, truncated or the wrong file).
    case notADatabase(path: String, detail: String)
    /// The database was written by a newer fpmod whose schema this build does not know.
    case newerSchema(path: String, found: Int, supported: Int)
    /// A directory or file could not be created or opened.
    case fileSystem(path: String, detail: String)
    /// The key file is missing although the store holds encrypted data.
    case missingKey(keyPath: String, databasePath: String)
    /// The key file exists but does not open this store.
    case wrongKey(keyPath: String, databasePath: String)
    /// The key file is not 32 bytes long.
    case badKeyFile(keyPath: String, detail: String)
    /// The key file can be read by its group or by others (`mode` is its permission bits).
    case keyFileExposed(keyPath: String, mode: UInt32)
    /// No database at this path, and the command does not create one.
    case noStore(databasePath: String)
    /// A stored value failed authentication: tampered with, swapped between rows, or written under another key.
    case undecryptable(what: String)
    case unknownUser(String)
    case duplicateUser(String)
    case invalidSlot(Int)
    /// The slot already holds a finger, and whose it is.
    case slotTaken(slot: Int, user: String, label: String)
    /// The user already has a finger with this label, and in which slot.
    case fingerLabelTaken(user: String, label: String, slot: Int)
    case unknownSlot(Int)
    /// The user has no finger with this label.
    case unknownFinger(user: String, label: String)
    /// The card is already someone's (by its keyed hash); `user` and `label` say whose.
    case cardTaken(user: String, label: String)
    /// A number two cards have ("user's label" each): one kept under this door's own card key,
    /// one from the fleet's hub under the fleet's, so neither could see the other when it came.
    case cardOfTwo([String])
    case cardLabelTaken(user: String, label: String)
    case unknownCard(user: String, label: String)
    case unknownIntent(Int64)
    /// No schedule by this name; `known` lists the ones there are.
    case unknownSchedule(String, known: [String])
    case duplicateSchedule(String)
    /// A schedule still assigned to these users cannot be deleted.
    case scheduleInUse(String, users: [String])
    case unknownHoliday(String)
    case duplicateHoliday(String)
    /// A user's validity would end before it starts (UTC seconds).
    case invalidValidity(from: Int64, until: Int64)
    case unknownConsoleAccount(String)
    case duplicateConsoleAccount(String)
    case unknownConsoleToken(String)
    case duplicateConsoleToken(String)
    case backupNotABackup
    case backupUnsupportedVersion(Int)
    case backupWrongPassphrase
    case backupEmptyPassphrase
    case backupCorrupted(detail: String)
    /// The backup holds a name, display name or label this fpmod refuses (control characters, say).
    case backupInvalidName(NameError)
    /// The backup holds something else a restore would refuse (a card kind, verify mode, panel
    /// card or store secret this fpmod does not take); `detail` names it, never a secret.
    case backupInvalid(detail: String)
    /// The command writes to the store, and the store cannot be written (`detail` says why).
    case readOnly(path: String, detail: String, fileSystem: Bool)
    /// Another process holds the write lock beyond the busy timeout.
    case busy(path: String)
    /// The file system holding the store has no room left; nothing of the failed write was kept.
    case diskFull(path: String)
    /// Any other SQLite failure, with its result code.
    case sqlite(code: Int32, message: String, path: String)
    /// libsodium could not be initialised or a primitive failed.
    case crypto(detail: String)

    public var description: String {
        switch self {
        case .notADatabase(let path, let detail):
            return "\(path) is not an fpmod store (\(detail)); pass the right file with --store, or move this one aside to start a new store"
        case .newerSchema(let path, let found, let supported):
            return "\(path) has schema version \(found) but this fpmod understands up to \(supported); upgrade fpmod, or restore a backup with this version"
        case .fileSystem(let path, let detail):
            return "cannot use \(path): \(detail); check the path and its permissions"
        case .missingKey(let keyPath, let databasePath):
            return "the key file \(keyPath) is missing but the store \(databasePath) holds encrypted templates; restore the key file (or pass it with --key), or restore from a backup into a new store"
        case .wrongKey(let keyPath, let databasePath):
            return "the key file \(keyPath) does not open the store \(databasePath); restore the right key, or move the store aside and restore from a backup"
        case .keyFileExposed(let keyPath, let mode):
            let who = [mode & 0o070 != 0 ? "its group" : nil, mode & 0o007 != 0 ? "other users" : nil].compactMap { $0 }.joined(separator: " and ")
            return "the key file \(keyPath) is open to \(who) (mode \(String(mode, radix: 8))): whoever can read it can decrypt every template, and whoever can write it can replace it; refused. Run `chmod 600 \(keyPath)` as its owner"
        case .noStore(let databasePath):
            return "there is no store at \(databasePath); nothing was created. If the store is elsewhere, point at it with --store PATH and --key PATH (or FPMOD_STORE and FPMOD_STORE_KEY; the service's paths are in its config under store.database and store.key). To start a new store there, enroll someone (`fpmod enroll NAME`), restore a backup, or run `fpmod setup`"
        case .badKeyFile(let keyPath, let detail):
            return "the key file \(keyPath) is unusable (\(detail)); restore the right key file (32 bytes)"
        case .undecryptable(let what):
            return "\(what) failed authentication (tampered, swapped or written under another key); run `fpmod sync` to re-enroll from the module, or restore from a backup"
        case .unknownUser(let name):
            return "no user named \(Printable.escaped(name)); see `fpmod list`"
        case .duplicateUser(let name):
            return "a user named \(Printable.escaped(name)) already exists; choose another name or enroll a finger for that user"
        case .invalidSlot(let slot):
            return "slot \(slot) is out of range; slots start at 0"
        case .slotTaken(let slot, let user, let label):
            return "slot \(slot) already holds \(Printable.escaped(user))'s \(Printable.escaped(label)); pick a free slot or delete that finger first"
        case .fingerLabelTaken(let user, let label, let slot):
            return "\(Printable.escaped(user)) already has \(Printable.escaped(label)) enrolled (slot \(slot)); delete it first or choose another finger"
        case .unknownSlot(let slot):
            return "no enrolled finger in slot \(slot); see `fpmod list`"
        case .unknownFinger(let user, let label):
            return "\(Printable.escaped(user)) has no finger labelled \(Printable.escaped(label)); see `fpmod list`"
        case .cardTaken(let user, let label):
            return "this card is already \(Printable.escaped(user))'s (\(Printable.escaped(label))); delete it there first (`fpmod card delete`) to give it to someone else"
        case .cardOfTwo(let cards):
            return "this card is two cards' (\(cards.map { Printable.escaped($0) }.joined(separator: ", ")): one added at this door, one from the fleet's hub); "
                + "refused until one is removed (fpmod card delete here, or fpmod hub remove-card)"
        case .cardLabelTaken(let user, let label):
            return "\(Printable.escaped(user)) already has a card labelled \(Printable.escaped(label)); choose another label (--label)"
        case .unknownCard(let user, let label):
            return "\(Printable.escaped(user)) has no card labelled \(Printable.escaped(label)); see `fpmod card list`"
        case .unknownSchedule(let name, let known):
            return "no schedule named \(Printable.escaped(name)); "
                + (known.isEmpty ? "there are none yet: add one with `fpmod schedule add NAME TEXT` (TEXT such as 'mon-fri 07:00-19:00')"
                                 : "there are \(known.map { Printable.escaped($0) }.joined(separator: ", ")) (`fpmod schedule list`)")
        case .duplicateSchedule(let name):
            return "a schedule named \(Printable.escaped(name)) already exists; give --replace to change it, or choose another name"
        case .scheduleInUse(let name, let users):
            return "the schedule \(Printable.escaped(name)) is still assigned to \(users.map { Printable.escaped($0) }.joined(separator: ", ")); "
                + "give them another one first (`fpmod user set NAME --schedule OTHER` or `--no-schedule`)"
        case .invalidValidity:
            return "the validity would end before it starts (--valid-until before --valid-from); give dates in order"
        case .unknownHoliday(let name):
            return "no holiday named \(Printable.escaped(name)); see `fpmod holiday list`"
        case .duplicateHoliday(let name):
            return "a holiday named \(Printable.escaped(name)) already exists; delete it first, or choose another name"
        case .unknownConsoleAccount(let name):
            return "no console account named \(Printable.escaped(name)); the console's Accounts page lists them"
        case .duplicateConsoleAccount(let name):
            return "a console account named \(Printable.escaped(name)) already exists; choose another name, or delete that account first"
        case .unknownConsoleToken(let name):
            return "no API token named \(Printable.escaped(name)); the console's Tokens page lists them"
        case .duplicateConsoleToken(let name):
            return "an API token named \(Printable.escaped(name)) already exists; choose another name, or revoke that token first"
        case .unknownIntent(let id):
            return "no pending operation \(id); it may already have been completed or repaired"
        case .backupNotABackup:
            return "this file is not an fpmod backup; check the file name"
        case .backupUnsupportedVersion(let version):
            return "this backup has format version \(version), which this fpmod cannot read; use a newer fpmod"
        case .backupWrongPassphrase:
            return "the passphrase does not open this backup; nothing was changed. Try again with the passphrase used for `fpmod backup`"
        case .backupEmptyPassphrase:
            return "a backup passphrase cannot be empty; choose a long passphrase and keep it apart from the backup"
        case .backupCorrupted(let detail):
            return "the backup is damaged (\(detail)); nothing was changed. Use another copy of the backup"
        case .backupInvalidName(let error):
            return "the backup holds a name this fpmod does not accept, so nothing was changed: \(error.description) "
                + "Restore it with the fpmod version that wrote it, correct the name there (rename the user, or enroll "
                + "the finger again under another label), and back up again"
        case .backupInvalid(let detail):
            return "this backup cannot be restored, so nothing was changed: \(detail). Restore it with the fpmod version "
                + "that wrote it (or a newer one), or use another backup"
        case .readOnly(let path, let detail, _):
            return "the store \(path) is read-only (\(detail)), and this command writes to it (identify and verify too: "
                + "they record every match in the audit log). Run it as the store's owner (for /var/lib/fpmod: root or the "
                + "fpmod service user) or make the store and its folder writable, or copy the store and its key somewhere "
                + "writable and pass --store and --key. list, log, info and doctor read a read-only store as it is"
        case .busy(let path):
            return "the store \(path) is locked by another process; try again later, or use the running service's commands"
        case .diskFull(let path):
            return "the disk holding the store is full: free space on the file system holding \(path) and try again; nothing was changed"
        case .sqlite(let code, let message, let path):
            return "SQLite error \(code) on \(path): \(message); check the disk and the file's permissions"
        case .crypto(let detail):
            return "cryptography failed: \(detail); check that libsodium is installed correctly"
        }
    }
}
