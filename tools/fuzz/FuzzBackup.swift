// libFuzzer entry point for backups: a restore reads a file someone handed over with its
// passphrase, so its contents are as hostile as its envelope. Built by tools/fuzz.sh against
// the instrumented libraries.
// Input: a mode byte, then the bytes. Mode even: the decrypted body (JSON), decoded as
// BackupFile.open decodes it and restored into a scratch store with replaceAll (the store side
// of `fpmod restore`). Mode odd: a whole file opened with BackupFile.open (passphrase "fuzz";
// the seeds use the interactive key derivation so a valid header costs milliseconds).
// Invariants: no crash or hang; a refused restore changes nothing in the store (the same
// users, fingers, schedules, holidays); an accepted one leaves exactly the backup's users.

import AccessPolicy
import Foundation
import TemplateStore

/// The scratch store, made once per process: two users, a finger, a schedule.
nonisolated(unsafe) var scratch: (store: TemplateStore, baseline: BackupContents)?

func scratchStore() -> (store: TemplateStore, baseline: BackupContents) {
    if let scratch { return scratch }
    let directory = "/dev/shm/fpmod-fuzz-backup-\(getpid())"
    try? FileManager.default.removeItem(atPath: directory)
    try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let store = try! TemplateStore(databasePath: directory + "/store.db", keyPath: directory + "/store.key")
    try! store.addUser(name: UserName(validating: "keeper"))
    try! store.addUser(name: UserName(validating: "second"))
    try! store.addFinger(user: UserName(validating: "keeper"), label: FingerLabel(validating: "right-index"), slot: 4,
                         template: [UInt8](repeating: 7, count: 512), quality: 80)
    let made = (store, try! store.backupContents())
    scratch = made
    return made
}

/// What a restore may change, as a comparable value.
func visible(_ store: TemplateStore) -> String {
    let users = (try? store.users().map { "\($0.name)|\($0.displayName)|\($0.role)" }.sorted()) ?? ["unreadable"]
    let fingers = (try? store.allFingers().map { "\($0.user)|\($0.label)|\($0.slot)|\($0.templateDigest)" }.sorted()) ?? ["unreadable"]
    let schedules = (try? store.schedules().map { "\($0.name)|\($0.text)" }) ?? ["unreadable"]
    return (users + fingers + schedules).joined(separator: "\n")
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzBackup(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let mode = data[0]
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if mode % 2 == 1 {
        _ = try? BackupFile.open(bytes, passphrase: "fuzz")
        return 0
    }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    guard let contents = try? decoder.decode(BackupContents.self, from: Data(bytes)) else { return 0 }
    let (store, baseline) = scratchStore()
    let before = visible(store)
    do {
        try store.replaceAll(with: contents)
    } catch {
        let after = visible(store)
        if after != before { fatalError("a refused restore (\(error)) changed the store:\n\(before)\n---\n\(after)") }
        return 0
    }
    let names = (try? store.users().map(\.name).sorted()) ?? []
    if names != contents.users.map(\.name).sorted() { fatalError("restored users \(names) are not the backup's \(contents.users.map(\.name))") }
    do { try store.replaceAll(with: baseline) } catch { fatalError("the baseline cannot be restored again: \(error)") }
    return 0
}

/// FPMOD_FUZZ_WRITE_SEEDS=DIR: write seeds (bodies of real backups, a sealed file) to DIR and exit.
@_cdecl("LLVMFuzzerInitialize")
public func writeSeeds(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    guard let directory = ProcessInfo.processInfo.environment["FPMOD_FUZZ_WRITE_SEEDS"] else { return 0 }
    let (store, baseline) = scratchStore()
    try! store.addSchedule(name: RuleName(validating: "office"), schedule: WeeklySchedule(parsing: "mon-fri 07:00-19:00"))
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    encoder.outputFormatting = .sortedKeys
    let withRules = try! store.backupContents()
    for (index, contents) in [baseline, withRules].enumerated() {
        _ = FileManager.default.createFile(atPath: "\(directory)/body-\(index)", contents: Data([0]) + (try! encoder.encode(contents)))
    }
    let sealed = try! BackupFile.seal(baseline, passphrase: "fuzz", strength: .interactive)
    _ = FileManager.default.createFile(atPath: "\(directory)/file-0", contents: Data([1] + sealed))
    exit(0)
}
