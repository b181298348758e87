import FingerprintModule
import FingerprintProtocol
import Foundation
import TemplateStore

/// Administration of one module and its store: enroll, identify, verify, delete, wipe, backup,
/// restore, sync, pair. Pure glue of `FingerprintModule` and `TemplateStore`, no CLI: the CLI and
/// the door service's control socket both call it.
///
/// The store is the truth and the module a cache (architecture.md). Every change to the module
/// is announced to the store first (an intent) and confirmed after, so a crash at any point is
/// finished or rolled back by `reconcile()` at the next open.
///
/// Not `Sendable`: like the driver, keep it on the thread that owns the module.
public final class Administrator {
    public let module: FingerprintModule
    public let store: TemplateStore
    /// How long to wait for each touch of the sensor.
    public var fingerTimeout: Duration = .seconds(15)
    /// The shortest time between two GenImg polls while waiting for a finger to come or go.
    /// A real module takes tens of milliseconds per GenImg anyway; one that answers at once
    /// (the instant simulator, a module without a sensor) would otherwise be polled
    /// thousands of times a second by a thread at full CPU.
    public var fingerPollInterval: Duration = .milliseconds(50)
    /// Asked between polls: true ends the wait with `AdministrationError.cancelled` (the
    /// service sets it when the client is gone or the service stops).
    public var isCancelled: () -> Bool = { false }
    /// A test hook called at named points of crash-sensitive sequences (e.g.
    /// "enroll.after-module-write"); the CLI kills the process there when FPMOD_FAILPOINT names it.
    public var failpoint: (String) throws -> Void = { _ in }
    /// How `identify()` may search: regulars first once the history allows it, or always whole.
    public var searchOrderMode: SearchOrder.Mode = .regularsFirst
    /// The module's search cost; nil: the family's datasheet figures at the port's baud rate.
    public var searchCost: SearchCost?
    /// The search order the last `identify()` used.
    public internal(set) var lastSearchOrder: SearchOrder?
    /// What the last `reconcile()` found out about the module.
    public internal(set) var finding: IdentityFinding = .unpaired

    public init(module: FingerprintModule, store: TemplateStore) {
        self.module = module
        self.store = store
    }

    /// The capacity the module reported, or the paired one.
    var capacity: Int {
        get throws {
            if let capacity = module.capacity { return capacity }
            return try module.readSystemParameters().capacity
        }
    }

    /// The module's occupied slots, read fresh (ReadIndexTable).
    func occupiedSlots() throws -> Set<Int> {
        try module.readIndexTable().occupied
    }

    /// Writes `template` into `slot`: DownChar into buffer 1, then Store.
    func writeTemplate(_ template: [UInt8], slot: Int) throws {
        try module.downloadTemplate(template, buffer: CharBuffer.one)
        try module.store(buffer: CharBuffer.one, slot: slot)
    }

    /// Records the module's current slot table in the pairing, so the next open can tell a
    /// library changed by someone else from one changed by us.
    func recordSlotTable() throws {
        guard var identity = try store.moduleIdentity() else { return }
        let digest = SlotTableDigest.of(try module.indexTable?.occupied ?? occupiedSlots())
        guard identity.slotTableDigest != digest else { return }
        identity.slotTableDigest = digest
        try store.setModuleIdentity(identity)
    }

    /// Runs a module call that changes flash after its intent was written: a module that stops
    /// answering leaves the intent for the next open to settle, and the error says so.
    func moduleStep<T>(_ operation: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ModuleError where error.isTransportFailure {
            throw AdministrationError.interrupted(operation: operation, underlying: error.description)
        }
    }
}

/// A short digest of a set of slots (FNV-1a 64 over the sorted list): not a secret, only a
/// quick "did this change" test kept in the pairing record.
enum SlotTableDigest {
    static func of(_ slots: Set<Int>) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in slots.sorted().map(String.init).joined(separator: ",").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return "fnv1a64:" + String(hash, radix: 16) + ":\(slots.count)"
    }
}
