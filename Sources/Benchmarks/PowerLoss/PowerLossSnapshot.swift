import Foundation
import ModuleSimulator
import TemplateStore

/// What a restart finds after a power cut. The store is read with the real `sqlite3` shell
/// (not fpmod's own code) for its integrity and its visible state; the module's flash and the
/// decrypted templates are compared slot by slot; the audit chain is verified from the
/// baseline's head, so a lost or rewritten record counts too.
struct PowerLossSnapshot: Sendable {
    /// `PRAGMA integrity_check`'s lines ("ok" alone when sound).
    var integrity: [String]
    /// Intents still pending after the restart: a change the restart neither finished nor undid.
    var pendingIntents: Int
    /// The store as a user sees it, a line per row. Ids, times and values that are random by
    /// design (salted PIN hashes, encrypted templates) are left out; templates are compared
    /// by digest. Bookkeeping is not a user's change: the service's runtime state (lockouts,
    /// its clock) and the day's count of flash writes (a budget, which a cut may leave a write
    /// short).
    var view: [String]
    /// Audit events written after the baseline, in order.
    var newAuditEvents: [String]

    /// The rows that make up the view, each tagged with its kind.
    static let viewQuery = """
        SELECT 'integrity', * FROM pragma_integrity_check;
        SELECT 'intents', count(*) FROM intents;
        SELECT 'user', name, display_name, role, fingerprint_unlock, pin_hash IS NOT NULL, hex(panel_card), verify_mode,
               schedule, valid_from, valid_until, uses_left FROM users ORDER BY name;
        SELECT 'finger', u.name, f.label, f.slot, f.template_digest, f.quality, f.duress, f.enrolled_slot
               FROM fingers f JOIN users u ON u.id = f.user_id ORDER BY f.slot;
        SELECT 'card', u.name, c.label, c.kind, hex(c.number_hash), c.enabled, c.valid_from, c.valid_until
               FROM cards c JOIN users u ON u.id = c.user_id ORDER BY u.name, c.label;
        SELECT 'schedule', name, text FROM schedules ORDER BY name;
        SELECT 'holiday', name, first, last, yearly, hours FROM holidays ORDER BY name;
        SELECT 'kv', key, value FROM kv WHERE key NOT IN ('doorlock.policy-state', 'layout.flash-writes') ORDER BY key;
        SELECT 'module', family, address, hex(password), capacity, product_info, slot_table_digest FROM module_identity;
        SELECT 'console-account', name, role FROM console_accounts ORDER BY name;
        SELECT 'console-token', name, role FROM console_tokens ORDER BY name;
        """

    static func read(directory: String, afterAuditID: Int64) -> Result<PowerLossSnapshot, BenchFailure> {
        let database = directory + "/" + PowerLossBaseline.databaseName
        let query = viewQuery + "\nSELECT 'audit', event FROM audit WHERE id > \(afterAuditID) ORDER BY id;"
        let output: String
        switch sqlite3(database: database, query: query) {
        case .failure(let failure): return .failure(failure)
        case .success(let text): output = text
        }
        var snapshot = PowerLossSnapshot(integrity: [], pendingIntents: -1, view: [], newAuditEvents: [])
        for line in output.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) {
            let tag = line.prefix { $0 != "|" }
            let rest = String(line.dropFirst(tag.count + 1))
            switch tag {
            case "integrity": snapshot.integrity.append(rest)
            case "intents": snapshot.pendingIntents = Int(rest) ?? -1
            case "audit": snapshot.newAuditEvents.append(rest)
            default: snapshot.view.append(line)
            }
        }
        return .success(snapshot)
    }

    /// `sqlite3 -batch DATABASE` reading `query` on stdin; its output, or why it failed.
    static func sqlite3(database: String, query: String) -> Result<String, BenchFailure> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-batch", "-bail", "-noheader", "-list", "-separator", "|", database]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch {
            return .failure(BenchFailure("cannot run /usr/bin/sqlite3 (apt install sqlite3): \(error)"))
        }
        input.fileHandleForWriting.write(Data(query.utf8))
        try? input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            return .failure(BenchFailure("sqlite3 could not read \(database): \(errorText.trimmingCharacters(in: .whitespacesAndNewlines))"))
        }
        return .success(text)
    }

    /// Store and module disagreements, in words: every finger's slot must hold exactly its
    /// template, and the module must hold nothing the store does not know.
    static func disagreements(directory: String) -> [String] {
        let flash: ModuleFlash
        do {
            guard let loaded = try StateFile.load(path: directory + "/" + PowerLossBaseline.flashName, profile: .r307) else {
                return ["the simulated module's flash file is gone"]
            }
            flash = loaded
        } catch {
            return ["the simulated module's flash cannot be read: \(error)"]
        }
        do {
            let store = try TemplateStore(readingOnly: directory + "/" + PowerLossBaseline.databaseName,
                                          keyPath: directory + "/" + PowerLossBaseline.keyName)
            var problems: [String] = []
            var known = Set<Int>()
            for finger in try store.allFingers() {
                known.insert(finger.slot)
                guard let held = flash.library[finger.slot] else {
                    problems.append("slot \(finger.slot) (\(finger.user)'s \(finger.label)) is empty on the module")
                    continue
                }
                if held != (try store.template(atSlot: finger.slot)) {
                    problems.append("slot \(finger.slot) holds another template than \(finger.user)'s \(finger.label)")
                }
            }
            for slot in flash.library.keys.sorted() where !known.contains(slot) {
                problems.append("the module holds slot \(slot), which the store gives nobody")
            }
            return problems
        } catch {
            return ["the store cannot be read: \(error)"]
        }
    }

    /// The audit chain's verdict from the baseline's head: nil when intact.
    static func auditProblem(directory: String, baselineHead: AuditChainHead?) -> String? {
        do {
            let store = try TemplateStore(readingOnly: directory + "/" + PowerLossBaseline.databaseName,
                                          keyPath: directory + "/" + PowerLossBaseline.keyName)
            let report = try store.verifyAuditChain(knownHead: baselineHead)
            if report.isIntact { return nil }
            return "the audit chain is broken: " + (report.sentence ?? "unknown problem")
        } catch {
            return "the audit chain cannot be verified: \(error)"
        }
    }
}
