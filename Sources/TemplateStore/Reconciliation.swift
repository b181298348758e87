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
    /// A delete was under way: delete from the module if it is still there, then the finger row.
    case finishDelete(intentID: Int64, slot: Int, deleteFromModule: Bool)
    /// A wipe was under way: empty the module, then delete every user and finger row.
    case finishWipe(intentID: Int64)
    /// The module holds a slot the store does not know: delete it from the module.
    case deleteOrphan(slot: Int)
    /// The store holds a slot the module lacks (or a restore rewrote the store): download its template.
    case restoreToModule(slot: Int)
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
        case .finishDelete(let id, let slot, let delete):
            return "finished interrupted delete #\(id) of slot \(slot)"
                + (delete ? "; deleted from the module and the store" : "; the module had already deleted it")
        case .finishWipe(let id):
            return "finished interrupted wipe #\(id): module emptied and every user removed"
        case .deleteOrphan(let slot):
            return "deleted slot \(slot) from the module: the store has no finger for it"
        case .restoreToModule(let slot):
            return "wrote slot \(slot) to the module from the store"
        case .dropIntent(let id, let reason):
            return "dropped pending operation #\(id): \(reason)"
        }
    }

    /// The module slot the caller must change before `applyStoreSide`, if any.
    public var moduleWork: ModuleWork? {
        switch self {
        case .finishEnroll(_, let slot, true), .restoreToModule(let slot): return .writeTemplate(slot: slot)
        case .rollBackEnroll(_, let slot, true), .finishDelete(_, let slot, true), .deleteOrphan(let slot):
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
/// other templates under the same slot numbers.
public func planReconciliation(storeSlots: [Int: String], moduleOccupied: Set<Int>,
                               pending: [Intent]) -> [RepairAction] {
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

    for intent in intents {
        switch intent.kind {
        case .wipe:
            break  // handled above
        case .restore:
            restores.append(intent)
        case .enroll:
            guard let slot = intent.slot else {
                actions.append(.dropIntent(intentID: intent.id, reason: "enroll without a slot"))
                continue
            }
            if store.contains(slot) {
                // The store already describes this slot; it stays the truth.
                actions.append(.dropIntent(intentID: intent.id, reason: "slot \(slot) is already in the store"))
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
                actions.append(.dropIntent(intentID: intent.id, reason: "delete without a slot"))
                continue
            }
            actions.append(.finishDelete(intentID: intent.id, slot: slot, deleteFromModule: module.contains(slot)))
            store.remove(slot)
            module.remove(slot)
            settled.insert(slot)
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
    return actions
}
