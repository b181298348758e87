import Foundation
import Glibc
import ModuleSimulator

/// The store and simulated module every iteration starts from, made with the real commands:
/// four users (an admin with two fingers and a PIN, one with a schedule and a card), a holiday,
/// and a backup of an earlier state for `restore`.
enum PowerLossBaseline {
    static let passphrase = "power loss campaign"
    static let databaseName = "store.db"
    static let keyName = "key"
    /// Where `fpmod --sim` keeps the simulated module's flash: beside the store.
    static let flashName = "sim-r307.state"

    /// The commands, in order, after `fpmod --sim`.
    static let steps: [(finger: String?, arguments: [String])] = [
        ("alice-right-index", ["enroll", "alice", "--admin"]),
        ("alice-left-index", ["enroll", "alice", "--finger", "left-index"]),
        ("bob-right-index", ["enroll", "bob"]),
        (nil, ["pin", "alice", "--pin", "4826"]),
        (nil, ["schedule", "add", "office", "mon-fri 07:00-19:00"]),
        (nil, ["user", "set", "bob", "--schedule", "office"]),
        (nil, ["card", "add", "bob", "26:12:3456"]),
        (nil, ["backup", "{dir}/backup.fpb", "--passphrase", passphrase]),
        ("carol-right-index", ["enroll", "carol"]),
        ("dave-right-index", ["enroll", "dave"]),
        (nil, ["holiday", "add", "xmas", "--date", "2026-12-25", "--closed"])
    ]

    /// Builds the agreeing baseline in `directory`, and the drifted one (for `sync`) beside it.
    static func build(executable: String, directory: String, drifted: String) throws(BenchFailure) {
        for step in steps {
            let argv = [executable, "--sim"] + (step.finger.map { ["--sim-finger", $0] } ?? [])
                + step.arguments.map { $0.replacingOccurrences(of: "{dir}", with: directory) }
            let result = PowerLossProcess.run(argv, directory: directory)
            guard result.exitStatus == 0 else {
                throw BenchFailure("baseline step \"fpmod --sim \(step.arguments.joined(separator: " "))\" failed: \(result.summary)")
            }
        }
        try copyFiles(from: directory, to: drifted)
        // The module forgot carol's template and holds a copy of slot 0 in slot 40.
        let path = drifted + "/" + flashName
        do {
            guard var flash = try StateFile.load(path: path, profile: .r307) else { throw BenchFailure("no simulator flash in \(drifted)") }
            guard let carolSlot = flash.library.keys.max(by: { $0 < $1 }).map({ $0 - 1 }), let first = flash.library[0] else {
                throw BenchFailure("the baseline's module is empty")
            }
            flash.library[carolSlot] = nil
            flash.library[40] = first
            try StateFile.save(flash, profile: .r307, path: path)
        } catch let failure as BenchFailure {
            throw failure
        } catch {
            throw BenchFailure("cannot drift the simulator flash: \(error)")
        }
    }

    /// Copies every regular file of `source` into `target` (created, emptied first): the store
    /// with its WAL and shared memory if present, its key, the module's flash, the backup.
    static func copyFiles(from source: String, to target: String) throws(BenchFailure) {
        let files = FileManager.default
        do {
            if files.fileExists(atPath: target) { try files.removeItem(atPath: target) }
            try files.createDirectory(atPath: target, withIntermediateDirectories: true)
            for name in try files.contentsOfDirectory(atPath: source) {
                var isDirectory: ObjCBool = false
                guard files.fileExists(atPath: source + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
                try files.copyItem(atPath: source + "/" + name, toPath: target + "/" + name)
            }
        } catch {
            throw BenchFailure("cannot copy \(source) to \(target): \(error)")
        }
    }
}
