import Foundation
import Testing
@testable import TemplateStore

@Suite struct RecordTests {
    @Test func usersCanBeManaged() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        try store.addUser(name: "bob")
        try store.addUser(name: "alice", displayName: "Alice", role: .admin, fingerprintUnlock: false)
        #expect(try store.users().map(\.name) == ["alice", "bob"])
        #expect(throws: StoreError.duplicateUser("bob")) { try store.addUser(name: "bob") }
        try store.renameUser("bob", to: "robert")
        #expect(try store.user(named: "bob") == nil)
        #expect(throws: StoreError.duplicateUser("alice")) { try store.renameUser("robert", to: "alice") }
        try store.setRole(.admin, for: "robert")
        try store.setFingerprintUnlock(true, for: "alice")
        try store.setDisplayName("Rob", for: "robert")
        let robert = try #require(try store.user(named: "robert"))
        #expect(robert.role == .admin && robert.displayName == "Rob")
        #expect(try store.user(named: "alice")?.fingerprintUnlock == true)
        #expect(throws: StoreError.unknownUser("zed")) { try store.setRole(.user, for: "zed") }
        #expect("\(StoreError.unknownUser("zed"))".contains("zed"))
        try store.deleteUser("robert")
        #expect(throws: StoreError.unknownUser("robert")) { try store.deleteUser("robert") }
        #expect(try store.users().map(\.name) == ["alice"])
    }

    @Test func pinsAreHashedAndVerified() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        try store.addUser(name: "alice")
        #expect(try store.verifyPIN("4826", for: "alice") == false)
        try store.setPIN("4826", for: "alice")
        #expect(try store.user(named: "alice")?.hasPIN == true)
        let hash = try #require(try store.connection.scalar("SELECT pin_hash FROM users").string)
        #expect(hash.hasPrefix("$argon2id$") && !hash.contains("4826"))
        #expect(try store.verifyPIN("4826", for: "alice"))
        #expect(try store.verifyPIN("4827", for: "alice") == false)
        #expect(try store.verifyPIN("", for: "alice") == false)
        try store.setPIN(nil, for: "alice")
        #expect(try store.verifyPIN("4826", for: "alice") == false)
        #expect(throws: StoreError.unknownUser("nobody")) { _ = try store.verifyPIN("1", for: "nobody") }
    }

    @Test func fingersBelongToOneUserAndOneSlot() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        try store.addUser(name: "alice")
        try store.addUser(name: "bob")
        let added = try store.addFinger(user: "alice", label: "right-index", slot: 5, template: sampleTemplate(1), quality: 81)
        #expect(added.user == "alice" && added.slot == 5 && added.quality == 81)
        #expect(added.templateDigest == Crypto.sha256Hex(sampleTemplate(1)) && added.templateDigest.count == 64)
        #expect(throws: StoreError.slotTaken(slot: 5, user: "alice", label: "right-index")) {
            try store.addFinger(user: "bob", label: "left-index", slot: 5, template: sampleTemplate(2), quality: 80)
        }
        #expect(throws: StoreError.fingerLabelTaken(user: "alice", label: "right-index", slot: 5)) {
            try store.addFinger(user: "alice", label: "right-index", slot: 6, template: sampleTemplate(2), quality: 80)
        }
        #expect(throws: StoreError.unknownUser("carol")) {
            try store.addFinger(user: "carol", label: "right-index", slot: 7, template: sampleTemplate(3), quality: 80)
        }
        #expect(throws: StoreError.invalidSlot(-1)) {
            try store.addFinger(user: "bob", label: "right-index", slot: -1, template: sampleTemplate(3), quality: 80)
        }
        try store.addFinger(user: "bob", label: "right-index", slot: 2, template: sampleTemplate(2), quality: 77)
        #expect(try store.allFingers().map(\.slot) == [2, 5])
        #expect(try store.fingers(of: "bob").map(\.label) == ["right-index"])
        #expect(try store.finger(atSlot: 2)?.user == "bob")
        #expect(try store.finger(atSlot: 3) == nil)
        #expect(try store.occupiedSlots() == [2, 5])
        #expect(throws: StoreError.unknownSlot(3)) { _ = try store.template(atSlot: 3) }
        // Deleting a user takes their fingers with them (ON DELETE CASCADE).
        try store.deleteUser("alice")
        #expect(try store.occupiedSlots() == [2])
        try store.deleteFinger(atSlot: 2)
        #expect(throws: StoreError.unknownSlot(2)) { try store.deleteFinger(atSlot: 2) }
    }

    @Test func enrolledSetDigestChangesWithTheSet() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        try store.addUser(name: "alice")
        let empty = try store.enrolledSetDigest()
        try store.addFinger(user: "alice", label: "a", slot: 1, template: sampleTemplate(1), quality: 1)
        let one = try store.enrolledSetDigest()
        try store.addFinger(user: "alice", label: "b", slot: 2, template: sampleTemplate(2), quality: 1)
        let two = try store.enrolledSetDigest()
        #expect(Set([empty, one, two]).count == 3)
        try store.deleteFinger(atSlot: 2)
        #expect(try store.enrolledSetDigest() == one)
        // Same slot, other template: changed.
        try store.deleteFinger(atSlot: 1)
        try store.addFinger(user: "alice", label: "a", slot: 1, template: sampleTemplate(3), quality: 1)
        #expect(try store.enrolledSetDigest() != one)
        #expect(TemplateStore.enrolledSetDigest([2: "x", 1: "y"]) == TemplateStore.enrolledSetDigest([1: "y", 2: "x"]))
    }

    @Test func moduleIdentityRoundTrips() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        #expect(try store.moduleIdentity() == nil)
        let identity = ModuleIdentity(family: "r50x", address: 0xFFFF_FFFE, password: 0xDEAD_BEEF, capacity: 200,
                                      productInfo: #"{"model":"R503"}"#, slotTableDigest: "abc",
                                      pairedAt: Date(timeIntervalSince1970: 1_700_000_000))
        try store.setModuleIdentity(identity)
        #expect(try store.moduleIdentity() == identity)
        var changed = identity
        changed.slotTableDigest = "def"
        try store.setModuleIdentity(changed)
        #expect(try store.moduleIdentity() == changed)
        try store.setModuleIdentity(nil)
        #expect(try store.moduleIdentity() == nil)
    }

    @Test func keyValueStateIsKept() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        do {
            let store = try dir.openStore()
            try store.setValue(#"{"lockout":false}"#, forKey: "policy.state")
            try store.setValue("gone", forKey: "temporary")
            try store.setValue(nil, forKey: "temporary")
        }
        let store = try dir.openStore()
        #expect(try store.value(forKey: "policy.state") == #"{"lockout":false}"#)
        #expect(try store.value(forKey: "temporary") == nil)
    }

    @Test func auditLogIsAppendOnly() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let store = try dir.openStore()
        let t0 = Date(timeIntervalSince1970: 1_000)
        try store.appendAudit(event: "match", user: "alice", slot: 3, score: 120,
                              latencyJSON: #"{"capture_ms":200}"#, time: t0)
        try store.appendAudit(event: "no-match", time: t0.addingTimeInterval(10))
        try store.appendAudit(event: "tamper", slot: 9, detail: "unknown slot", time: t0.addingTimeInterval(20))
        let all = try store.auditEntries()
        #expect(all.map(\.event) == ["match", "no-match", "tamper"])
        #expect(all[0].user == "alice" && all[0].slot == 3 && all[0].score == 120 && all[0].latencyJSON == #"{"capture_ms":200}"#)
        #expect(try store.auditEntries(limit: 2).map(\.event) == ["no-match", "tamper"])
        #expect(try store.auditEntries(since: t0.addingTimeInterval(5)).map(\.event) == ["no-match", "tamper"])
        #expect(throws: StoreError.self) { try store.connection.execute("UPDATE audit SET event = 'match' WHERE event = 'tamper'") }
        #expect(throws: StoreError.self) { try store.connection.execute("DELETE FROM audit") }
        #expect(try store.auditEntries().count == 3)
    }
}
