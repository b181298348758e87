import FingerprintModule
import FingerprintProtocol
import TemplateStore

/// The swap of two occupied slots, for a full library: LoadChar A → buffer 1, LoadChar B →
/// buffer 2, Store buffer 1 → B, Store buffer 2 → A; no template crosses the wire. Crash-safe:
/// the swap intent (both slots, both fingers) is committed before the first Store, each
/// confirmed Store is recorded, and the store's mapping exchanges in one transaction after both
/// (with the audit row, the flash-write count and the intent's removal). Cut before both Stores
/// were confirmed, `reconcile` writes the slots back from the store's copies (`settleSwap`):
/// B's template lived only in buffer 2, so that DownChar is the only way back — repair only.
/// The open-time `reconcile` runs before the service identifies anyone, and a module error here
/// repairs at once, so no slot matches the wrong user.
extension LayoutMover {
    func performSwap(_ first: Finger, _ second: Finger) throws -> Outcome {
        let (a, b) = (first.slot, second.slot)
        let what = "swap of slot \(a) and slot \(b)"
        let intent = try store.beginSwapIntent(first, second)
        let failpoint = administrator.failpoint
        try failpoint("swap.before-load")
        do {
            try administrator.moduleStep(what) { try module.loadTemplate(buffer: CharBuffer.one, slot: a) }
            try administrator.moduleStep(what) { try module.loadTemplate(buffer: CharBuffer.two, slot: b) }
        } catch let error as ModuleError {
            // Nothing was written: the swap is simply not made.
            try store.completeIntent(intent)
            throw error
        }
        if shouldYield() {
            try store.completeIntent(intent)
            return .abandoned
        }
        try failpoint("swap.before-first-store")
        try settlingOnFailure(what) { try administrator.moduleStep(what) { try module.store(buffer: CharBuffer.one, slot: b) } }
        try failpoint("swap.after-first-store")
        try settlingOnFailure(what) { try store.recordSwapStore(1, intent) }
        try failpoint("swap.before-second-store")
        try settlingOnFailure(what) { try administrator.moduleStep(what) { try module.store(buffer: CharBuffer.two, slot: a) } }
        try failpoint("swap.after-second-store")
        try settlingOnFailure(what) { try store.recordSwapStore(2, intent) }
        try failpoint("swap.before-commit")
        try settlingOnFailure(what) { try commitSwap(first, second, intent: intent) }
        try failpoint("swap.after-commit")
        return .moved
    }

    /// The store's half, in one transaction: the mapping, the flash-write count, the audit row
    /// (the match history follows it) and the intent's removal.
    private func commitSwap(_ first: Finger, _ second: Finger, intent: Int64) throws {
        let (a, b) = (first.slot, second.slot)
        try store.transaction {
            try store.swapFingers(a, b)
            try FlashWriteLedger(store: store).record(SlotMove.swap(a, b).flashWrites)
            try store.appendAudit(event: "layout-swap", user: first.user, slot: b,
                                  detail: LayoutAudit.swapDetail(first: first, second: second))
            try store.completeIntent(intent)
        }
    }

    /// Once the first Store may have run, slot B can hold A's template: any failure (a Store the
    /// module refused or did not answer, a store write) settles the swap at once as a crash
    /// would be (`reconcile` rewrites from the store), so the service never identifies on a
    /// half-swapped library; if that fails too the intent waits for the next open.
    private func settlingOnFailure(_ what: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            do {
                try administrator.reconcile()
            } catch let repair {
                // Still unsettled: reported as an interruption, so the service reopens the
                // module (and reconciles) before it identifies anyone.
                throw AdministrationError.interrupted(operation: what, underlying: "\(error); repair failed: \(repair)")
            }
            throw error
        }
    }
}

extension LayoutAudit {
    public static func swapDetail(first: Finger, second: Finger) -> String {
        "swapped slot \(first.slot) and slot \(second.slot) (\(first.user)/\(first.label) ⇄ \(second.user)/\(second.label))"
    }

    /// The two slots of a detail that names a swap ("… swapped slot A and slot B…"), else nil.
    public static func swap(in detail: String) -> SlotMove? {
        slots(in: detail, after: "swapped slot ", between: " and slot ").map { SlotMove.swap($0.0, $0.1) }
    }
}
