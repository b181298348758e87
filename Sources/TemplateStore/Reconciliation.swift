/// One step that brings the store and the module back into agreement after an interruption.
/// The module part (if any) is done by the caller; `TemplateStore.applyStoreSide(of:)` does the rest.
public enum RepairAction: Equatable, Sendable, CustomStringConvertible {
    /// The module holds the enrolled template: insert the finger row from the intent and complete it.
    /// When `rewriteModule` is true the module write was never confirmed, so the caller first
    /// downloads the intent's template into the slot again to be sure the slot holds exactly it.
    case finishEnroll(intentID: Int64, slot: Int, rewriteModule: Bool)
    /// The enroll cannot be finished: drop the intent. When `deleteFromModule` is true the module
    /// holds a half-enrolled template the store cannot describe; the caller deletes it first.
    case rollBackEnroll(intentID: Int64, slot: Int, deleteFromModule: Bool)
    /// The enroll can never be finished (`reason`: its name or label is refused today, its user
    /// is gone, its slot does not exist…): dropped, never retried, the store left as it is. When
    /// `deleteFromModule` is true the module holds the template; the caller erases the slot first.
    case abandonEnroll(intentID: Int64, slot: Int, deleteFromModule: Bool, reason: String)
    /// A delete was under way: delete from the module if it is still there, then the finger row.
    case finishDelete(intentID: Int64, slot: Int, deleteFromModule: Bool)
    /// A move's module write was not confirmed (or cannot be finished): the store keeps the
    /// finger in `from`. When `deleteTarget` is true the module holds a copy in `to`, a slot the
    /// store gives nobody; the caller deletes it first.
    case rollBackMove(intentID: Int64, from: Int, to: Int, deleteTarget: Bool)
    /// A move's copy in `to` was confirmed: the store's mapping moves to `to` (unless
    /// `commitStore` is false: it already did), and the old copy in `from` is deleted from the
    /// module first when `deleteSource` is true.
    case finishMove(intentID: Int64, from: Int, to: Int, commitStore: Bool, deleteSource: Bool)
    /// A swap's two Stores were both confirmed: the store's mapping exchanges the two slots
    /// (unless `commitStore` is false: it already did), and the intent is dropped.
    case finishSwap(intentID: Int64, a: Int, b: Int, commitStore: Bool)
    /// A swap was cut before both Stores were confirmed: the slot may hold the other finger's
    /// template, so it is written again from the store's encrypted copy (the one DownChar of the
    /// layout, and only in repair). A `dropIntent` follows once every such slot is rewritten.
    case rewriteSwapSlot(intentID: Int64, slot: Int)
    /// A whole user's delete was under way: the caller deletes the fingers the user still has
    /// (module first, each with its own intent), then the user row goes with the intent.
    case finishDeleteUser(intentID: Int64, user: String)
    /// A wipe was under way: empty the module, then delete every user and finger row.
    case finishWipe(intentID: Int64)
    /// The module holds a slot the store does not know: delete it from the module.
    case deleteOrphan(slot: Int)
    /// The store holds a slot the module lacks (or a restore rewrote the store): download its template.
    case restoreToModule(slot: Int)
    /// A finger the fleet's hub sent is in the store, announced by a restore intent for its slot:
    /// the caller writes its template into the slot (the module may hold nothing there, or the
    /// finger's template the hub replaced), then the intent goes.
    case loadFromHub(intentID: Int64, slot: Int)
    /// Nothing is left to do for this intent: remove it.
    case dropIntent(intentID: Int64, reason: String)

    /// A sentence for the audit log and the user.
    public var description: String {
        switch self {
        case .finishEnroll(let id, let slot, let rewrite):
            return "finished interrupted enroll #\(id): slot \(slot) recorded in the store"
                + (rewrite ? " and its template written to the module again" : "")
        case .rollBackEnroll(let id, let slot, let delete):
            return "rolled back interrupted enroll #\(id) of slot \(slot)"
                + (delete ? "; the half-enrolled template was deleted from the module" : "; the module slot was empty")
        case .abandonEnroll(let id, let slot, let delete, let reason):
            return "rolled back enroll #\(id) of slot \(slot), which can never finish (\(reason)); "
                + (delete ? "the template was erased from the module slot" : "the module slot was empty")
                + " and the store is unchanged"
        case .finishDelete(let id, let slot, let delete):
            return "finished interrupted delete #\(id) of slot \(slot)"
                + (delete ? "; deleted from the module and the store" : "; the module had already deleted it")
        case .rollBackMove(let id, let from, let to, let delete):
            return "rolled back interrupted move #\(id) of slot \(from) to slot \(to)"
                + (delete ? "; the unconfirmed copy in slot \(to) was deleted from the module" : "; slot \(to) was empty")
        case .finishMove(let id, let from, let to, _, let delete):
            return "finished interrupted move #\(id) of the template from slot \(from) to slot \(to)"
                + (delete ? "; the old copy was deleted from the module" : "")
        case .finishSwap(let id, let a, let b, let commit):
            // "swapped slot A and slot B" is what the match history follows (LayoutAudit.swap).
            return commit ? "finished interrupted swap #\(id): swapped slot \(a) and slot \(b)"
                : "finished interrupted swap #\(id) of slots \(a) and \(b): the store had already exchanged them"
        case .rewriteSwapSlot(let id, let slot):
            return "rewrote slot \(slot) from the store after interrupted swap #\(id)"
        case .finishWipe(let id):
            return "finished interrupted wipe #\(id): module emptied and every user removed"
        case .deleteOrphan(let slot):
            return "deleted slot \(slot) from the module: the store has no finger for it"
        case .restoreToModule(let slot):
            return "wrote slot \(slot) to the module from the store"
        case .loadFromHub(let id, let slot):
            return "wrote slot \(slot) to the module from the store: a finger from the fleet's hub (#\(id))"
        case .finishDeleteUser(let id, let user):
            return "finished interrupted delete #\(id) of user \(user)"
        case .dropIntent(let id, let reason):
            return "dropped pending operation #\(id): \(reason)"
        }
    }

    /// The module slot the caller must change before `applyStoreSide`, if any.
    public var moduleWork: ModuleWork? {
        switch self {
        case .finishEnroll(_, let slot, true), .restoreToModule(let slot), .rewriteSwapSlot(_, let slot), .loadFromHub(_, let slot):
            return .writeTemplate(slot: slot)
        case .rollBackEnroll(_, let slot, true), .abandonEnroll(_, let slot, true, _), .finishDelete(_, let slot, true), .deleteOrphan(let slot),
             .rollBackMove(_, _, let slot, true), .finishMove(_, let slot, _, _, true):
            return .deleteSlot(slot)
        case .finishWipe: return .emptyLibrary
        default: return nil
        }
    }

    /// What the module must do for an action.
    public enum ModuleWork: Equatable, Sendable {
        /// Download the template (from the intent for `finishEnroll`, from the store otherwise) into the slot.
        case writeTemplate(slot: Int)
        case deleteSlot(Int)
        case emptyLibrary
    }
}

/// Decides how to bring the store and the module into agreement, from the store's slots, the
/// module's occupied slots and the intents an interrupted process left behind. Pure: no I/O.
///
/// Intents are settled first (oldest first); then every slot only the store has is written to
/// the module and every slot only the module has is deleted from it. A pending wipe supersedes
/// everything else. A pending restore rewrites every store slot, since the module may hold
/// other templates under the same slot numbers; a restore of one slot (a finger the fleet's
/// hub sent) rewrites that slot alone, or is dropped when the store no longer has it. An enroll named in `unfinishable` (intent id →
/// why) is abandoned instead of finished: finishing it would fail at every open, for ever.
public func planReconciliation(storeSlots: [Int: String], moduleOccupied: Set<Int>,
                               pending: [Intent], unfinishable: [Int64: String] = [:]) -> [RepairAction] {
    let intents = pending.sorted { $0.id < $1.id }
    if let wipe = intents.first(where: { $0.kind == .wipe }) {
        return [.finishWipe(intentID: wipe.id)]
            + intents.filter { $0.id != wipe.id }.map { .dropIntent(intentID: $0.id, reason: "superseded by wipe #\(wipe.id)") }
    }
    var store = Set(storeSlots.keys)
    var module = moduleOccupied
    var settled = Set<Int>()
    var actions: [RepairAction] = []
    var restores: [Intent] = []
    // After every slot is settled: a user's remaining fingers are deleted by the caller.
    var userDeletes: [RepairAction] = []

    for intent in intents {
        switch intent.kind {
        case .wipe:
            break  // handled above
        case .restore:
            guard let slot = intent.slot else {
                restores.append(intent)
                continue
            }
            if store.contains(slot) {
                actions.append(.loadFromHub(intentID: intent.id, slot: slot))
                module.insert(slot)
                settled.insert(slot)
            } else {
                // What the module holds there is the plain comparison's (or a later delete intent's).
                actions.append(.dropIntent(intentID: intent.id, reason: "slot \(slot) is no longer in the store"))
            }
        case .enroll:
            guard let slot = intent.slot else {
                actions.append(.dropIntent(intentID: intent.id, reason: "enroll without a slot"))
                continue
            }
            if store.contains(slot) {
                // The store already describes this slot; it stays the truth.
                actions.append(.dropIntent(intentID: intent.id, reason: "slot \(slot) is already in the store"))
            } else if let reason = unfinishable[intent.id] {
                actions.append(.abandonEnroll(intentID: intent.id, slot: slot, deleteFromModule: module.contains(slot), reason: reason))
                module.remove(slot)
            } else if module.contains(slot), intent.template != nil, intent.user != nil, intent.label != nil {
                actions.append(.finishEnroll(intentID: intent.id, slot: slot, rewriteModule: intent.state == .pending))
                store.insert(slot)
            } else {
                actions.append(.rollBackEnroll(intentID: intent.id, slot: slot, deleteFromModule: module.contains(slot)))
                module.remove(slot)
            }
            settled.insert(slot)
        case .delete:
            guard let slot = intent.slot else {
                if let user = intent.user {
                    userDeletes.append(.finishDeleteUser(intentID: intent.id, user: user))
                } else {
                    actions.append(.dropIntent(intentID: intent.id, reason: "delete without a slot"))
                }
                continue
            }
            actions.append(.finishDelete(intentID: intent.id, slot: slot, deleteFromModule: module.contains(slot)))
            store.remove(slot)
            module.remove(slot)
            settled.insert(slot)
        case .move:
            guard let from = intent.slot, let to = intent.targetSlot, from != to else {
                actions.append(.dropIntent(intentID: intent.id, reason: "move without two slots"))
                continue
            }
            if intent.isSwap {
                actions += settleSwap(intent, a: from, b: to, store: &store, module: &module)
                settled.formUnion([from, to])
                continue
            }
            actions.append(settleMove(intent, from: from, to: to, store: &store, module: &module))
            settled.formUnion([from, to])
        }
    }

    let restoring = !restores.isEmpty
    for slot in store.sorted() where !settled.contains(slot) && (restoring || !module.contains(slot)) {
        actions.append(.restoreToModule(slot: slot))
    }
    for slot in module.sorted() where !store.contains(slot) && !settled.contains(slot) {
        actions.append(.deleteOrphan(slot: slot))
    }
    actions += restores.map { .dropIntent(intentID: $0.id, reason: "restore finished: the module now matches the store") }
    return actions + userDeletes
}

/// One interrupted move (LoadChar `from`, Store `to`, store commit, DeletChar `from`). The store
/// maps `from` until the commit and `to` after it. A slot the store gives a finger is never
/// deleted, so no repair can leave a slot matching someone the store does not name there.
private func settleMove(_ intent: Intent, from: Int, to: Int, store: inout Set<Int>, module: inout Set<Int>) -> RepairAction {
    let copyUnknownToStore = module.contains(to) && !store.contains(to)
    switch intent.state {
    case .storeCommitted:
        let delete = module.contains(from) && !store.contains(from)
        if delete { module.remove(from) }
        return .finishMove(intentID: intent.id, from: from, to: to, commitStore: false, deleteSource: delete)
    case .moduleWritten where store.contains(from) && copyUnknownToStore:
        let delete = module.contains(from)
        store.remove(from)
        store.insert(to)
        if delete { module.remove(from) }
        return .finishMove(intentID: intent.id, from: from, to: to, commitStore: true, deleteSource: delete)
    case .pending, .moduleWritten:
        // The Store into `to` may or may not have run: whatever `to` holds is not known to be
        // the template, and the store still names `from`.
        if copyUnknownToStore { module.remove(to) }
        return .rollBackMove(intentID: intent.id, from: from, to: to, deleteTarget: copyUnknownToStore)
    }
}

/// One interrupted swap (LoadChar A → buffer 1, LoadChar B → buffer 2, Store 1 → B, Store 2 → A,
/// store commit). The store names A's finger in A and B's in B until the commit. Both Stores
/// confirmed: roll forward (the store's mapping exchanges; no flash write). Otherwise roll back:
/// B (and A, once the first Store was confirmed, since the second may have run) is written again
/// from the store's copy — the only way back, because B's template was only in buffer 2.
private func settleSwap(_ intent: Intent, a: Int, b: Int, store: inout Set<Int>, module: inout Set<Int>) -> [RepairAction] {
    if intent.state == .storeCommitted {
        return [.finishSwap(intentID: intent.id, a: a, b: b, commitStore: false)]
    }
    guard store.contains(a), store.contains(b) else {
        // A finger went away behind the swap's back: the plain slot repairs below settle both slots.
        return [.dropIntent(intentID: intent.id, reason: "swap of slot \(a) and slot \(b) no longer has two fingers")]
    }
    if intent.swapStoresConfirmed >= 2, module.contains(a), module.contains(b) {
        return [.finishSwap(intentID: intent.id, a: a, b: b, commitStore: true)]
    }
    let rewrite = intent.swapStoresConfirmed >= 1 ? [b, a] : [b]
    module.formUnion(rewrite)
    return rewrite.map { .rewriteSwapSlot(intentID: intent.id, slot: $0) }
        + [.dropIntent(intentID: intent.id, reason: "rolled back interrupted swap of slot \(a) and slot \(b)")]
}
