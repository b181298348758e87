import DoorLock
import Foundation
import ModuleSimulator
import TemplateStore
import Testing

/// The service plans regulars first from its own audit log, moves the regulars' templates
/// together between touches within the flash bound, says so in `status`, and every finger keeps
/// opening for its own user.
@Suite(.serialized) struct RegularsFirstServiceTests {
    static let users = (0..<8).map { "u\($0)" }

    /// u0…u7 in slots 0…7; a per-template cost that makes an 8-template library worth splitting.
    func harness(maxFlashWritesPerDay: Int = 100) throws -> LockHarness {
        try LockHarness(
            configJSON: """
                {"policy": {"pinRequiredAfterRestart": false},
                 "library": {"searchOrder": "regulars-first", "maxFlashWritesPerDay": \(maxFlashWritesPerDay),
                             "searchCost": {"fixedMs": 2, "perTemplateMs": 5}}}
                """,
            enroll: false,
            beforeStart: { simulator in
                for (slot, user) in Self.users.enumerated() { LockHarness.enroll(simulator, finger: "\(user)-index", slot: slot) }
            },
            configureOptions: { $0.layoutQuietPeriod = .milliseconds(300) },
            setUpStore: { store in
                for (slot, user) in Self.users.enumerated() {
                    let name = try UserName(validating: user)
                    try store.addUser(name: name)
                    try store.addFinger(user: name, label: "right-index", slot: slot, template: LockHarness.template(for: "\(user)-index"),
                                        quality: 100)
                }
            })
    }

    func scan(_ lock: LockHarness, _ user: String) throws -> LockEvent {
        try lock.scan("\(user)-index", expecting: ["match", "no-match", "retry-scan", "misplaced"])
    }

    func search(_ lock: LockHarness) throws -> [String: Any]? {
        try lock.control("status")["search"] as? [String: Any]
    }

    @Test func regularsMoveTogetherAndAreSearchedFirst() throws {
        let lock = try harness()
        // u5 and u3 are the regulars; everyone else touches once: 58 touches, more than the 50 a plan needs.
        for _ in 0..<25 {
            #expect(try scan(lock, "u5").fields["user"] == "u5")
            #expect(try scan(lock, "u3").fields["user"] == "u3")
        }
        for user in Self.users { #expect(try scan(lock, user).fields["user"] == user) }
        // After the quiet spell the service moves u3 and u5 to slots 0 and 1, then plans again.
        try waitUntil("the regulars sit in slots 0 and 1", timeout: .seconds(20)) {
            let owners = try [0, 1].compactMap { try lock.store.finger(atSlot: $0)?.user }
            return Set(owners) == ["u3", "u5"]
        }
        // u0 and u1 made room (to slots 8 and 3): 4 moves, 8 flash writes; the rest is 2..<9.
        var last: [String: Any]?
        defer { if last?["plan"] as? String != "slots 0 to 1, then slots 2 to 8" { Issue.record("last status: \(String(describing: last))") } }
        try waitUntil("status shows regulars-first with nothing left to move", timeout: .seconds(20)) {
            let search = try self.search(lock)
            last = search
            return search?["order"] as? String == "regulars-first" && search?["layoutMovesPending"] as? Int == 0
                && search?["plan"] as? String == "slots 0 to 1, then slots 2 to 8"
        }
        let search = try #require(try self.search(lock))
        #expect(search["hotSetSize"] as? Int == 2)
        #expect((search["historyTouches"] as? Int ?? 0) >= 58)
        #expect(search["flashWritesToday"] as? Int == 8)
        #expect(search["maxFlashWritesPerDay"] as? Int == 100)
        // The store and the module agree, and every finger still opens for its own user.
        let library = lock.simulator.library
        let fingers = try lock.store.allFingers()
        #expect(Set(library.keys) == Set(fingers.map(\.slot)))
        for finger in fingers {
            let stored = try lock.store.template(atSlot: finger.slot)
            #expect(library[finger.slot] == stored)
        }
        for user in Self.users { #expect(try scan(lock, user).fields["user"] == user) }
        #expect(try scan(lock, "stranger").name == "no-match")
        #expect(lock.events(named: "enrolled-set-changed").isEmpty)  // a move is not a new finger
    }

    @Test func noMovesWithoutAFlashBudget() throws {
        let lock = try harness(maxFlashWritesPerDay: 0)
        for _ in 0..<55 { _ = try scan(lock, "u6") }
        try waitUntil("status shows a plan") { try self.search(lock)?["order"] != nil }
        Thread.sleep(forTimeInterval: 0.6)
        #expect(try lock.store.finger(atSlot: 6)?.user == "u6")
        #expect(try self.search(lock)?["layoutMovesPending"] as? Int == 0)
        #expect(try FlashWriteLedgerProbe.used(lock.store) == 0)
    }
}

/// The ledger's count, read as the service writes it.
enum FlashWriteLedgerProbe {
    static func used(_ store: TemplateStore) throws -> Int {
        guard let text = try store.value(forKey: "layout.flash-writes") else { return 0 }
        return Int(text.split(separator: " ").last ?? "") ?? 0
    }
}
