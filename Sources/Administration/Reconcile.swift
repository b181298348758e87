import FingerprintModule
import FingerprintProtocol
import TemplateStore

extension Administrator {
    /// Brings the module and the store into agreement (architecture.md "crash-safe by
    /// construction"). Interrupted operations (intents) are always finished or rolled back, with
    /// an audit row each. Other differences — slots only the module has, slots the module lost —
    /// are repaired only when `repairDifferences` is true (`sync`); otherwise they become a
    /// `.foreign` finding, since a library changed outside fpmod must not be silently trusted
    /// nor silently erased. Returns the repairs done, in order.
    @discardableResult
    public func reconcile(repairDifferences: Bool = false) throws -> [RepairAction] {
        let occupied = try occupiedSlots()
        // A restore of the whole library (not of one slot, a finger from the hub) rewrites it all.
        let restoring = try store.pendingIntents().contains { $0.kind == .restore && $0.slot == nil }
        var done: [RepairAction] = []
        var unknown: [Int] = []
        var missing: [Int] = []
        // An enroll that can never commit is abandoned, not retried at every open for ever.
        let unfinishable = try PendingIntents.unfinishableEnrolls(in: store, capacity: try? capacity)
        for action in try store.planReconciliation(moduleOccupied: occupied, unfinishable: unfinishable) {
            if !repairDifferences && !restoring {
                if case .deleteOrphan(let slot) = action { unknown.append(slot); continue }
                if case .restoreToModule(let slot) = action { missing.append(slot); continue }
            }
            try perform(action)
            done.append(action)
        }
        if !unknown.isEmpty || !missing.isEmpty {
            let found = IdentityFinding.foreign(unknownSlots: unknown, missingSlots: missing)
            if finding != found {
                try store.appendAudit(event: found.event, detail: found.description)
            }
            finding = found
        } else if case .foreign = finding {
            finding = try store.moduleIdentity() == nil ? .unpaired : .verified
        }
        if !done.isEmpty || repairDifferences { try recordSlotTable() }
        return done
    }

    /// Makes the module's library equal to the store: writes what it lacks, deletes what the
    /// store does not know, settles interrupted operations. Returns what it changed.
    @discardableResult
    public func sync() throws -> [RepairAction] {
        // Writing templates this module cannot use would make it "match the store" and match
        // nobody: refused before any change.
        try checkStoreTemplatesFit()
        let actions = try reconcile(repairDifferences: true)
        try store.appendAudit(event: "sync", detail: actions.isEmpty ? "module already equal to the store" : "\(actions.count) change(s)")
        return actions
    }

    /// The module side of one repair, then the store side (which writes the audit row).
    func perform(_ action: RepairAction) throws {
        if case .finishDeleteUser(_, let user) = action, try store.user(named: user) != nil {
            _ = try deleteFingers(try store.fingers(of: user), of: user)
        }
        switch action.moduleWork {
        case .writeTemplate(let slot):
            let template: [UInt8]
            if case .finishEnroll(let id, _, _) = action,
               let stored = try store.pendingIntents().first(where: { $0.id == id })?.template {
                template = stored
            } else {
                template = try store.template(atSlot: slot)
            }
            try moduleStep("repair of slot \(slot)") { try writeTemplate(template, slot: slot) }
        case .deleteSlot(let slot):
            try moduleStep("repair of slot \(slot)") { try module.deleteTemplates(start: slot, count: 1) }
        case .emptyLibrary:
            try moduleStep("wipe repair") { try module.emptyLibrary() }
        case nil:
            break
        }
        try store.transaction {
            switch action {
            case .finishEnroll(let id, _, _), .rollBackEnroll(let id, _, _), .abandonEnroll(let id, _, _, _), .dropIntent(let id, _):
                let key = NewUserRecord.key(intent: id)
                if case .finishEnroll = action, let record = NewUserRecord(text: try store.value(forKey: key)),
                   let name = try store.pendingIntents().first(where: { $0.id == id })?.user,
                   try store.user(named: name) == nil {
                    // Checked by `PendingIntents.unfinishableEnrolls` before the plan finished it.
                    try store.addUser(name: try UserName(validating: name), displayName: try record.displayName.map { try DisplayName(validating: $0) },
                                      role: record.admin ? .admin : .user)
                }
                try store.setValue(nil, forKey: key)
            default:
                break
            }
            var duressFinger: (user: String, label: String)?
            if case .finishEnroll(let id, _, _) = action, try store.value(forKey: DuressMark.key(intent: id)) != nil,
               let intent = try store.pendingIntents().first(where: { $0.id == id }),
               let user = intent.user, let label = intent.label {
                duressFinger = (user, try FingerLabel(validating: label).text)
            }
            switch action {
            case .finishEnroll(let id, _, _), .rollBackEnroll(let id, _, _), .abandonEnroll(let id, _, _, _), .dropIntent(let id, _):
                try store.setValue(nil, forKey: DuressMark.key(intent: id))
            default:
                break
            }
            try store.applyStoreSide(of: action)
            if let duressFinger { try store.setDuress(true, user: duressFinger.user, label: duressFinger.label) }
        }
    }
}
