import Glibc
import FingerprintModule
import Foundation
import Posix
import TemplateStore

/// What a delete removed.
public struct DeleteResult: Equatable, Sendable {
    public var user: String
    /// The fingers removed, as (label, slot).
    public var fingers: [RemovedFinger]
    /// True when the user was removed too (no --finger given).
    public var userRemoved: Bool

    public init(user: String, fingers: [RemovedFinger], userRemoved: Bool) {
        self.user = user
        self.fingers = fingers
        self.userRemoved = userRemoved
    }
}

public struct RemovedFinger: Equatable, Sendable {
    public var label: String
    public var slot: Int
    public init(label: String, slot: Int) {
        self.label = label
        self.slot = slot
    }
}

extension Administrator {
    /// Deletes one finger of a user, or (label nil) every finger and then the user.
    /// Each finger: intent → DeletChar → confirm → store row and intent removed together. A
    /// whole user is one change: its own intent is in the store before the first finger goes,
    /// so a cut between two fingers (or before the user row goes) is finished at the next open
    /// (`RepairAction.finishDeleteUser`), never left as a user with some of their fingers.
    @discardableResult
    public func delete(user: String, label: String? = nil) throws -> DeleteResult {
        let chosen = try MatchRecording.fingersToDelete(of: user, label: label, in: store)
        let userIntent = label == nil ? try store.beginIntent(.delete, user: user) : nil
        let removed = try deleteFingers(chosen, of: user)
        if let userIntent {
            try failpoint("delete.before-user-commit")
            try store.transaction {
                try store.deleteUser(user)
                try store.completeIntent(userIntent)
                try store.appendAudit(event: "delete-user", user: user, detail: "deleted user \(user)")
            }
        }
        try recordSlotTable()
        return DeleteResult(user: user, fingers: removed, userRemoved: label == nil)
    }

    /// Each finger: intent → DeletChar → confirm → store row, intent and audit row together.
    func deleteFingers(_ chosen: [Finger], of user: String) throws -> [RemovedFinger] {
        var removed: [RemovedFinger] = []
        for finger in chosen {
            let intent = try store.beginIntent(.delete, user: user, label: finger.label, slot: finger.slot)
            try failpoint("delete.before-module-write")
            try moduleStep("delete of \(user)'s \(finger.label)") { try module.deleteTemplates(start: finger.slot, count: 1) }
            try store.markIntentModuleWritten(intent)
            try failpoint("delete.after-module-write")
            try store.transaction {
                try store.deleteFinger(atSlot: finger.slot)
                try store.completeIntent(intent)
                try store.appendAudit(event: "delete", user: user, slot: finger.slot, detail: "deleted \(finger.label)")
            }
            removed.append(RemovedFinger(label: finger.label, slot: finger.slot))
        }
        return removed
    }

    /// Empties the module and deletes every user: intent → Empty → confirm → store.
    /// Returns how many users were removed.
    @discardableResult
    public func wipe() throws -> Int {
        let intent = try store.beginIntent(.wipe)
        try failpoint("wipe.before-module-write")
        try moduleStep("wipe") { try module.emptyLibrary() }
        try store.markIntentModuleWritten(intent)
        try failpoint("wipe.after-module-write")
        let count = try store.transaction {
            let users = try store.users()
            for user in users { try store.deleteUser(user.name) }
            try store.completeIntent(intent)
            try store.appendAudit(event: "wipe", detail: "emptied the module and removed \(users.count) user(s)")
            return users.count
        }
        try recordSlotTable()
        return count
    }

    /// How recent a verification must be to change fingerprint unlock.
    public static let verificationLifetime: Duration = .seconds(120)

    /// Turns fingerprint unlock on or off for `user`, after a successful verification of that
    /// user or of an admin (as a phone verifies before its fingerprint-unlock switch changes).
    public func setFingerprintUnlock(user: String, enabled: Bool, verifiedBy proof: Verification?) throws {
        try StoreAdministration.setFingerprintUnlock(store, user: user, enabled: enabled, verifiedBy: proof)
    }
}

/// Store-only administration: no module needed (rename, PIN, backup file).
public enum StoreAdministration {
    /// `Administrator.setFingerprintUnlock` for any reader: the proof comes from whichever
    /// reader verified the finger, the switch lives in the store.
    public static func setFingerprintUnlock(_ store: TemplateStore, user: String, enabled: Bool,
                                            verifiedBy proof: Verification?) throws {
        guard try store.user(named: user) != nil else { throw StoreError.unknownUser(user) }
        guard let proof, proof.user == user || proof.role == .admin,
              ContinuousClock.now - proof.at <= Administrator.verificationLifetime else {
            throw AdministrationError.verificationRequired(user: user)
        }
        try store.transaction {
            try store.setFingerprintUnlock(enabled, for: user)
            try store.appendAudit(event: enabled ? "unlock-enabled" : "unlock-disabled", user: user,
                                  slot: proof.slot, detail: "verified by \(proof.user)")
        }
    }

    public static func renameUser(_ store: TemplateStore, user: String, to newName: UserName) throws {
        try store.transaction {
            try store.renameUser(user, to: newName)
            try store.appendAudit(event: "rename", user: newName.text, detail: "renamed \(user) to \(newName)")
        }
    }

    /// Sets (or with nil clears) a user's PIN, which must pass `PINRule` (the CLI's prompts
    /// state the same rule; this holds it for every caller).
    public static func setPIN(_ store: TemplateStore, user: String, pin: String?) throws {
        if let pin, let problem = PINRule.problem(pin) { throw PINError.refused(problem) }
        try store.transaction {
            try store.setPIN(pin, for: user)
            try store.appendAudit(event: pin == nil ? "pin-cleared" : "pin-set", user: user)
        }
    }

    public enum PINError: Error, Equatable, CustomStringConvertible, Sendable {
        /// Why, from `PINRule.problem` (it never repeats the PIN).
        case refused(String)
        public var description: String {
            switch self {
            case .refused(let problem): "this PIN is not accepted: \(problem); nothing was changed. Choose \(PINRule.summary)"
            }
        }
    }

    /// Writes the whole store, passphrase-encrypted, to `path` (0600, written to a temporary file
    /// first and renamed, so an interrupted backup never leaves a truncated file under the name).
    /// Returns the number of users, fingers and cards written.
    @discardableResult
    public static func backup(_ store: TemplateStore, to path: String, passphrase: String) throws -> (users: Int, fingers: Int, cards: Int) {
        let contents = try store.backupContents()
        let bytes = try BackupFile.seal(contents, passphrase: passphrase)
        do { try AtomicFile.replace(path, with: bytes, mode: 0o600) } catch {
            throw BackupWriteError(path: path, reason: error.description)
        }
        try store.appendAudit(event: "backup", detail: "wrote \(contents.users.count) users, \(contents.fingerCount) fingers and \(contents.cardCount) cards to \(path)")
        return (contents.users.count, contents.fingerCount, contents.cardCount)
    }

    public struct BackupWriteError: Error, CustomStringConvertible, Sendable {
        public var path: String
        public var reason: String = ""
        public var description: String {
            "cannot write the backup to \(path)\(reason.isEmpty ? "" : " (\(reason))"); check that its directory exists and is writable"
        }
    }
}
