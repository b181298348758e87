extension TemplateStore {
    /// The plan for this store against the module's occupied slots (`ReadIndexTable`).
    /// `unfinishable`: enroll intents that can never commit, with why (see the free function).
    public func planReconciliation(moduleOccupied: Set<Int>, unfinishable: [Int64: String] = [:]) throws -> [RepairAction] {
        try locked {
            pureReconciliationPlan(storeSlots: try slotDigests(), moduleOccupied: moduleOccupied,
                                   pending: try pendingIntents(), unfinishable: unfinishable)
        }
    }

    /// Does the store's part of a repair, after the caller did its `moduleWork`, and writes a
    /// `repair` audit row with the action's description — all in one transaction.
    public func applyStoreSide(of action: RepairAction) throws {
        try transaction {
            var slot: Int?
            var user: String?
            switch action {
            case .finishEnroll(let id, let s, _):
                guard let intent = try pendingIntents().first(where: { $0.id == id }),
                      let template = intent.template, let name = intent.user, let label = intent.label else {
                    throw StoreError.unknownIntent(id)
                }
                try addFinger(user: try UserName(validating: name), label: try FingerLabel(validating: label), slot: s, template: template,
                              quality: intent.quality ?? 0)
                try completeIntent(id)
                slot = s
                user = name
            case .rollBackEnroll(let id, let s, _), .abandonEnroll(let id, let s, _, _), .finishDelete(let id, let s, _):
                user = try pendingIntents().first(where: { $0.id == id })?.user ?? finger(atSlot: s)?.user
                // The row may be gone already: a user removed at the fleet hub leaves only the intent,
                // for the template the module still holds.
                if case .finishDelete = action, user != nil, try finger(atSlot: s) != nil { try deleteFinger(atSlot: s) }
                try completeIntent(id)
                slot = s
            case .rollBackMove(let id, let from, let to, _):
                user = try pendingIntents().first(where: { $0.id == id })?.user ?? finger(atSlot: from)?.user
                try completeIntent(id)
                slot = to
            case .finishMove(let id, let from, let to, let commitStore, _):
                if commitStore { try moveFinger(from: from, to: to) }
                user = try finger(atSlot: to)?.user
                try completeIntent(id)
                slot = to
            case .finishSwap(let id, let a, let b, let commitStore):
                if commitStore { try swapFingers(a, b) }
                user = try finger(atSlot: a)?.user
                try completeIntent(id)
                slot = a
            case .rewriteSwapSlot(_, let s):
                slot = s
                user = try finger(atSlot: s)?.user
            case .finishDeleteUser(let id, let name):
                if try self.user(named: name) != nil { try deleteUser(name) }
                try completeIntent(id)
                user = name
            case .finishWipe(let id):
                try connection.query("DELETE FROM users")
                try completeIntent(id)
            case .dropIntent(let id, _):
                try completeIntent(id)
            case .loadFromHub(let id, let s):
                try completeIntent(id)
                slot = s
                user = try finger(atSlot: s)?.user
            case .deleteOrphan(let s), .restoreToModule(let s):
                slot = s
                user = try finger(atSlot: s)?.user
            }
            try appendAudit(event: "repair", user: user, slot: slot, detail: action.description)
        }
    }
}

/// The free function, reachable from inside the method of the same name.
private func pureReconciliationPlan(storeSlots: [Int: String], moduleOccupied: Set<Int>,
                                    pending: [Intent], unfinishable: [Int64: String]) -> [RepairAction] {
    planReconciliation(storeSlots: storeSlots, moduleOccupied: moduleOccupied, pending: pending, unfinishable: unfinishable)
}
