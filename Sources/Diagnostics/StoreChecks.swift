extension DoctorChecks {
    /// The template store's files are private, its key is there, it knows the module, and (on an
    /// image sensor's store) this matcher reads every template.
    static func store(_ context: DoctorContext) -> [DoctorCheck] {
        let facts = context.facts.store
        guard let database = facts.database else {
            let skipped = "no store at \(facts.databasePath) yet (fpmod setup, pair or the first enroll creates it)."
            return [DoctorCheck("store", "Store", .skipped, skipped),
                    DoctorCheck("store.key", "Store key", .skipped, "no store yet."),
                    DoctorCheck("store.pairing", "Pairing", .skipped, "no store yet."),
                    DoctorCheck("store.pending", "Pending operations", .skipped, "no store yet."),
                    DoctorCheck("store.template-format", "Template format", .skipped, "no store yet.")]
        }
        return [storeFiles(facts, database), storeKey(facts), pairing(facts), pendingOperations(facts), templateFormat(facts)]
    }

    /// Intents an interrupted or older fpmod left: each is settled at the next open of the
    /// module, which is worth knowing before it happens (an enroll that can never finish is
    /// rolled back and its slot erased).
    static func pendingOperations(_ facts: StoreFacts) -> DoctorCheck {
        let title = "Pending operations"
        guard let pending = facts.pendingOperations else {
            return DoctorCheck("store.pending", title, .skipped, "the store could not be read.")
        }
        guard !pending.isEmpty else { return DoctorCheck("store.pending", title, .ok, "None: nothing was interrupted.") }
        return DoctorCheck("store.pending", title, .warning,
                           "\(pending.count) operation\(pending.count == 1 ? "" : "s") interrupted: " + pending.joined(separator: "; ") + ".",
                           fix: "Nothing to do by hand: the next command that opens the module (or the service at its start) settles "
                               + (pending.count == 1 ? "it" : "them") + " as said, with a repair line in `fpmod log`.")
    }

    static func storeFiles(_ facts: StoreFacts, _ database: FileNode) -> DoctorCheck {
        let title = "Store"
        if let error = facts.openError {
            return DoctorCheck("store", title, .problem, "\(facts.databasePath) cannot be opened: \(error)")
        }
        if let readOnly = facts.readOnly {
            return DoctorCheck("store", title, .warning,
                               "\(facts.databasePath) is read-only for this user (\(readOnly)): list, log, info and doctor read it; "
                                   + "enroll, identify and every other command that writes refuse.",
                               fix: "Run fpmod as the store's owner (root or the fpmod service user), or copy the store and its key somewhere writable (--store, --key).")
        }
        var loose: [String] = []
        if database.mode & 0o077 != 0 { loose.append("the database is \(database.modeText)") }
        if let directory = facts.directory, directory.mode & 0o077 != 0 { loose.append("its folder is \(directory.modeText)") }
        if !loose.isEmpty {
            let folder = facts.directory?.path ?? "the folder"
            return DoctorCheck("store", title, .warning,
                               "\(facts.databasePath): \(loose.joined(separator: " and ")); other users may read names and the audit log (templates stay encrypted).",
                               fix: "chmod 600 \(database.path) and chmod 700 \(folder).")
        }
        return DoctorCheck("store", title, .ok, "\(facts.databasePath) \(database.modeText), owned by \(database.owner)"
                           + (facts.directory.map { ", folder \($0.modeText)" } ?? "") + ".")
    }

    static func storeKey(_ facts: StoreFacts) -> DoctorCheck {
        let title = "Store key"
        guard let key = facts.key else {
            return DoctorCheck("store.key", title, .problem,
                               "The key file \(facts.keyPath) is missing: the encrypted templates and the pairing cannot be read.",
                               fix: "Put the key file back (from your backup) or point --key / FPMOD_STORE_KEY at it. Without it, restore a backup into a new store.")
        }
        if key.mode & 0o077 != 0 {
            return DoctorCheck("store.key", title, .problem,
                               "\(key.path) is \(key.modeText): other users can read the key that decrypts every template.",
                               fix: "chmod 600 \(key.path) (and consider who may have copied it).")
        }
        return DoctorCheck("store.key", title, .ok, "\(key.path) \(key.modeText), owned by \(key.owner).")
    }

    static func pairing(_ facts: StoreFacts) -> DoctorCheck {
        let title = "Pairing"
        switch facts.pairing {
        case .unknown(let reason):
            return DoctorCheck("store.pairing", title, .skipped, reason)
        case .none:
            return DoctorCheck("store.pairing", title, .warning, "The store knows no module: it keeps its factory password and address.",
                               fix: "fpmod pair (with the module connected).")
        case let .paired(family, address, pairedAt):
            return DoctorCheck("store.pairing", title, .ok, "Paired with a \(family) module at address \(hex8(address)) on \(pairedAt).")
        }
    }
}
