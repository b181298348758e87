import AccessPolicy
import DoorLock
import Foundation
import Testing
import TemplateStore

/// Issue 10, items 2 and 3: the service opens its module through the one opener
/// (Administration) at start and at every reconnect: a reset or foreign module is tamper with
/// the reason, not "disconnected"; interrupted operations are settled before the first scan.
@Suite(.serialized)
struct ServiceOpenerTests {
    /// The store is paired with address/password the simulator never got: exactly what a
    /// reset or swapped module at the factory address looks like (ESPHome #4126).
    @Test func aFactoryAddressModuleWithAPairedStoreIsTamperNotDisconnected() throws {
        let lock = try LockHarness(waitForModule: false, setUpStore: { store in
            try store.setModuleIdentity(ModuleIdentity(family: "r30x", address: 0x1234_5678, password: 0x0BAD_CAFE, capacity: 1000))
        })
        let tamper = try lock.waitForEvent(named: "tamper")
        #expect(tamper.fields["reason"]?.contains("not the module paired with this store") == true, "\(tamper.fields)")
        let status = try lock.control("status")
        #expect((status["pinOnly"] as? String)?.contains("factory address") == true, "\(status)")
        #expect(status["module"] as? String == "disconnected", "the untrusted module is not used: \(status)")
        let audit = try lock.store.auditEntries(limit: 50).map(\.event)
        #expect(audit.contains("module-reset"), "\(audit)")
        // Fingers are refused; the PIN still opens.
        #expect(try lock.control("pin alice 4826")["result"] as? String == "unlocked")
    }

    @Test func aLibraryChangedOutsideFpmodIsTamperAtStart() throws {
        // The store has alice's finger in slot 0; the module's library is empty.
        let lock = try LockHarness(enroll: false, setUpStore: { store in
            try store.addUser(name: "alice")
            try store.addFinger(user: "alice", label: "right-index", slot: 0,
                                template: LockHarness.template(for: "alice-index"), quality: 100)
        })
        let tamper = try lock.waitForEvent(named: "tamper")
        #expect(tamper.fields["reason"]?.contains("changed outside fpmod") == true, "\(tamper.fields)")
        #expect(lock.service.snapshot.moduleConnected)
    }

    @Test func anInterruptedEnrollIsFinishedWhenTheServiceStarts() throws {
        let template = LockHarness.template(for: "alice-thumb")
        let lock = try LockHarness(configJSON: #"{"policy": {"pinRequiredAfterEnrolledSetChange": false}}"#,
                                   beforeStart: { LockHarness.enroll($0, finger: "alice-thumb", slot: 5) },
                                   setUpStore: { store in
                                       // Killed after the module stored it, before the store's finger row.
                                       let id = try store.beginEnrollIntent(user: "alice", label: "left-thumb", slot: 5,
                                                                      template: template, quality: 100)
                                       try store.markIntentModuleWritten(id)
                                   })
        try waitUntil("the interrupted enroll is finished") { try lock.store.pendingIntents().isEmpty }
        #expect(try lock.store.finger(atSlot: 5)?.label == "left-thumb")
        let outcome = try lock.scan("alice-thumb", expecting: ["match", "tamper"])
        #expect(outcome.name == "match", "\(outcome)")
    }
}
