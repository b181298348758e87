import FingerprintModule
import FingerprintProtocol
import PrintableText
import TemplateStore

/// Why an administration operation refused or failed. Each description says what happened and
/// what to do next; `ModuleError` and `StoreError` pass through unwrapped.
public enum AdministrationError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The finger is already enrolled; `user`/`label` are nil when the store does not know the slot.
    case duplicateFinger(slot: Int, user: String?, label: String?)
    /// RegModel answered `0A`, or a Match between captures failed.
    case capturesDiffer
    /// No free slot in the module library (or the module answered `1F`/`0B`).
    case libraryFull(capacity: Int)
    case fingerAlreadyEnrolled(user: String, label: String, slot: Int)
    case noFingerPlaced
    case noFingersEnrolled(user: String)
    case unknownFinger(user: String, label: String)
    /// `captures` outside 2…6.
    /// `enroll --captures N` outside what the reader can take (a module 2…6, an image sensor 5…15).
    case invalidCaptureCount(Int, allowed: ClosedRange<Int>)
    /// Fingerprint unlock may only change after that user or an admin verified.
    case verificationRequired(user: String)
    /// The store already knows a module; pairing again needs `force`.
    case alreadyPaired
    /// `unpair` on a store that paired no module.
    case notPaired
    /// The module the port reaches is not the paired one.
    case untrustedModule(IdentityFinding)
    /// The backup was made for another module family; its templates would not load.
    case familyMismatch(backup: String, module: String)
    /// Templates (of a backup or the store) were made by another family or have another size
    /// than the attached module's: they would load but never match. `slots` are the unusable ones.
    case templatesDoNotFit(holder: String, family: String?, sizes: [Int], moduleFamily: String,
                           moduleTemplateSize: Int?, slots: [Int])
    /// The backup is of an image sensor's store: host templates, which no module can load.
    case backupFromImageSensor
    /// A backup slot lies beyond this module's capacity.
    case backupDoesNotFit(slot: Int, capacity: Int)
    /// The store holds users and restoring would replace them.
    case restoreNeedsConfirmation(users: Int)
    /// Reading a written template back gave other bytes.
    case verificationFailed(slot: Int, detail: String)
    /// The module stopped answering in the middle of a change; the next command repairs it.
    case interrupted(operation: String, underlying: String)
    /// The caller gave up (its client went away, or the service is stopping) while waiting for a finger.
    case cancelled

    public var description: String {
        switch self {
        case .duplicateFinger(let slot, let user?, let label?):
            return "enroll-duplicate: this finger is already enrolled as \(Printable.escaped(user))'s \(Printable.escaped(label)) (slot \(slot)); nothing was changed. Use another finger, or delete that one first"
        case .duplicateFinger(let slot, _, _):
            return "enroll-duplicate: this finger is already in module slot \(slot), which the store does not know (a tamper finding); run `fpmod sync` to remove unknown slots, then enroll again"
        case .capturesDiffer:
            return "enroll-failed: the captures were of different fingers; nothing was changed. Start again and use the same finger for every capture"
        case .libraryFull(let capacity):
            return "enroll-data-full: the module library is full (\(capacity) slots); nothing was changed. Delete unused fingers (`fpmod list`, `fpmod delete`) first"
        case .fingerAlreadyEnrolled(let user, let label, let slot):
            return "\(Printable.escaped(user)) already has \(Printable.escaped(label)) enrolled (slot \(slot)); delete it first (`fpmod delete \(Printable.escaped(user)) --finger \(Printable.escaped(label))`) or choose another --finger"
        case .noFingerPlaced:
            return "no finger was placed on the sensor in time; try again, pressing the whole fingertip flat"
        case .noFingersEnrolled(let user):
            return "\(Printable.escaped(user)) has no enrolled finger; enroll one first (`fpmod enroll \(Printable.escaped(user))`)"
        case .unknownFinger(let user, let label):
            return "\(Printable.escaped(user)) has no finger labelled \(Printable.escaped(label)); see `fpmod list`"
        case let .invalidCaptureCount(count, allowed):
            return "\(count) captures is not possible with this reader; nothing was changed. Use \(allowed.lowerBound) to \(allowed.upperBound) (--captures N)"
        case .verificationRequired(let user):
            return "changing fingerprint unlock for \(Printable.escaped(user)) needs a successful verification of \(Printable.escaped(user)) or of an admin first; place that finger when asked"
        case .alreadyPaired:
            return "the store is already paired with a module; use `fpmod pair --force` to pair again (the old password and address are replaced)"
        case .notPaired:
            return "this store paired no module, so there is nothing to undo. A module paired by another store answers only to "
                + "that store: run `fpmod unpair` with it (--store and --key); docs/recovery.md covers a store that is lost"
        case .untrustedModule(let finding):
            return finding.description
        case .familyMismatch(let backup, let module):
            return "the templates were made by a \(backup) module but the attached module is \(module); templates do not move between families, so nothing was written. Use a \(backup) module, or re-enroll the users on this one (`fpmod enroll NAME`)"
        case .templatesDoNotFit(let holder, let family, let sizes, let moduleFamily, let moduleTemplateSize, let slots):
            let made = family.map { "made by a module of the \($0) family" } ?? "made by another module"
            let bytes = sizes.map(String.init).joined(separator: "/")
            let module = "the attached module is of the \(moduleFamily) family" + (moduleTemplateSize.map { ", whose templates are \($0) bytes" } ?? "")
            let fix = holder == "the store"
                ? "Attach the module the store was enrolled on, or re-enroll these users on this one (`fpmod delete NAME`, then `fpmod enroll NAME`; `fpmod list` marks their fingers)"
                : "Restore it onto a module of the \(family ?? "same") family, or re-enroll the users on this module (`fpmod enroll NAME`)"
            return "\(holder) holds templates of \(bytes) bytes \(made), but \(module): they cannot be used for matching here (slots \(slots.map(String.init).joined(separator: ", "))), so nothing was written. \(fix)"
        case .backupFromImageSensor:
            return "this backup is of an image sensor's store: its templates were made for matching on the host, and a UART module cannot load them, so nothing was written. Restore it with the image sensor (--spi PATH, or `spiDevice` in the config) into a store of its own, or re-enroll the users on this module (`fpmod enroll NAME`)"
        case .backupDoesNotFit(let slot, let capacity):
            return "the backup uses slot \(slot) but this reader's library has only \(capacity) slots, so nothing was written; restore onto a module with a larger library"
        case .restoreNeedsConfirmation(let users):
            return "the store holds \(users) user(s) that the restore would replace; confirm with --yes (make a backup first)"
        case .verificationFailed(let slot, let detail):
            return "slot \(slot) did not read back as written (\(detail)); the module may be faulty. Run `fpmod sync` to write it again"
        case .cancelled:
            return "cancelled while waiting for a finger (the client went away or the service is stopping); nothing was changed by the unfinished step. Start again"
        case .interrupted(let operation, let underlying):
            return "the module stopped answering during \(operation) (\(underlying)); the store recorded the operation, and the next fpmod command finishes or rolls it back. Check the module and run `fpmod sync`"
        }
    }
}
