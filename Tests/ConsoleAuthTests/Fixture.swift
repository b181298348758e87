import ConsoleAuth
import Foundation
import Synchronization
import TemplateStore
import TestSupport

/// A wall clock the test moves by hand.
final class FakeClock: Sendable {
    private let seconds = Mutex<Double>(1_800_000_000)

    var now: Double { seconds.withLock { $0 } }
    func advance(_ by: Double) { seconds.withLock { $0 += by } }
    var clock: WallClock { { [self] in now } }
}

/// A real store file in a scratch folder, and the console's parts over it with one fake clock.
struct Fixture {
    let folder = ScratchFolder(prefix: "fpmod-console")
    let clock = FakeClock()
    var store: TemplateStore

    var database: String { folder.file("data/fpmod.db") }
    var key: String { folder.file("config/store.key") }

    init() throws {
        store = try TemplateStore(databasePath: folder.file("data/fpmod.db"), keyPath: folder.file("config/store.key"))
    }

    /// Another connection to the same file, as another process (or a restarted service) has.
    func open() throws -> TemplateStore { try TemplateStore(databasePath: database, keyPath: key) }

    var sessions: Sessions { Sessions(store: store, clock: clock.clock) }
    var setupCode: SetupCode { SetupCode(store: store, clock: clock.clock) }
    var accounts: Accounts { Accounts(store: store, clock: clock.clock) }
    var tokens: BearerTokens { BearerTokens(store: store, clock: clock.clock) }

    /// An admin `alice` made through the setup code, as a fresh console is.
    func withAdmin(_ name: String = "alice", password: String = "correct horse battery") throws {
        try setupCode.redeem(code: try setupCode.issue(), name: name, password: password)
    }

    /// Every byte of the store's files (database, WAL, shared memory).
    func storeBytes() -> [UInt8] {
        ["", "-wal", "-shm"].flatMap { suffix in
            FileManager.default.contents(atPath: database + suffix).map { [UInt8]($0) } ?? []
        }
    }

    func remove() { folder.remove() }
}

func contains(_ haystack: [UInt8], _ needle: String) -> Bool {
    let bytes = Array(needle.utf8)
    guard let first = bytes.first, bytes.count <= haystack.count else { return false }
    var index = 0
    while index <= haystack.count - bytes.count {
        if haystack[index] == first, haystack[index..<(index + bytes.count)].elementsEqual(bytes) { return true }
        index += 1
    }
    return false
}

extension Result {
    var success: Success? { if case .success(let value) = self { return value }; return nil }
    var failure: Failure? { if case .failure(let error) = self { return error }; return nil }
}
