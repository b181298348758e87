import DoorLock
import Foundation
import Testing

/// Issue 10, item 1: during a PIN lockout the control socket is no PIN oracle. `pin`, `unlock`
/// and `clear` are refused without a check (the right PIN gets the same answer as a wrong
/// one), every wrong PIN counts alike, and the wrong PIN that starts a lockout says so.
@Suite(.serialized)
struct PinLockoutTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case timed, permanent
        var testDescription: String { rawValue }
        /// Two wrong PINs start the lockout, so the test needs only two memory-hard checks.
        var config: String {
            switch self {
            case .timed: #"{"policy": {"pinLockout": {"failuresPerTimedLockout": 2, "timedLockoutSeconds": 600}}}"#
            case .permanent: #"{"policy": {"pinLockout": {"failuresPerTimedLockout": 2, "failuresForPermanentLockout": 2}}}"#
            }
        }
        var startedReason: String { self == .timed ? "PIN entry is now locked for 600 s" : "PIN entry is now disabled" }
        var refusedReason: String { self == .timed ? "PIN entry locked" : "PIN entry disabled" }
    }

    static func lockedOut(_ kind: Kind, configureOptions: (inout LockService.Options) -> Void = { _ in }) throws -> LockHarness {
        let lock = try LockHarness(configJSON: kind.config,
                                   beforeStart: { LockHarness.enroll($0, finger: "boss-index", slot: 1) },
                                   configureOptions: configureOptions,
                                   setUpStore: { store in
                                       try store.addFinger(user: "boss", label: "right-index", slot: 1,
                                                           template: LockHarness.template(for: "boss-index"), quality: 100)
                                   })
        let first = try lock.control("clear boss 0000")
        #expect(first["reason"] as? String == "wrong PIN; try again", "\(first)")
        let second = try lock.control("pin alice 0000")
        #expect((second["reason"] as? String)?.contains(kind.startedReason) == true, "\(second)")
        return lock
    }

    @Test(arguments: Kind.allCases)
    func everyPinVerbIsRefusedWithoutACheckDuringALockout(kind: Kind) throws {
        let lock = try Self.lockedOut(kind)
        let pairs = [("pin alice 4826", "pin alice 0000"), ("pin 4826", "pin 0000"),
                     ("unlock boss 7391", "unlock boss 0000"), ("clear boss 7391", "clear boss 0000")]
        for (right, wrong) in pairs {
            let rightReply = try lock.control(right)
            let wrongReply = try lock.control(wrong)
            #expect(rightReply["ok"] as? Bool == false, "\(right): \(rightReply)")
            #expect((rightReply["reason"] as? String)?.contains(kind.refusedReason) == true, "\(right): \(rightReply)")
            #expect(NSDictionary(dictionary: rightReply) == NSDictionary(dictionary: wrongReply), "\(right) vs \(wrong)")
        }
        let status = try lock.control("status")
        #expect(status["pinFailures"] as? Int == 2, "refused attempts are not counted: \(status)")
        #expect(lock.events(named: "admin-clear").isEmpty)
        #expect(!lock.relayChanges.contains(true))
    }

    @Test(arguments: Kind.allCases)
    func rootOnThisMachineClearsAPinLockoutWithoutAPin(kind: Kind) throws {
        let lock = try Self.lockedOut(kind)
        #expect(try lock.control("clear")["result"] as? String == "cleared")
        #expect(try lock.control("pin alice 4826")["result"] as? String == "unlocked")
    }

    @Test func clearWithoutAPinIsRefusedToAnyoneButTheTrustedUIDs() throws {
        let lock = try Self.lockedOut(.permanent) { $0.trustedClearUIDs = [] }
        let reply = try lock.control("clear")
        #expect(reply["code"] as? String == "denied", "\(reply)")
        #expect((reply["error"] as? String)?.contains("only for root") == true)
        #expect(try lock.control("status")["pinFailures"] as? Int == 2)
    }

    @Test(arguments: Kind.allCases)
    func anAdminFingerEndsAPinLockout(kind: Kind) throws {
        let lock = try Self.lockedOut(kind)
        try lock.scan("boss-index", expecting: ["match"])
        #expect(try lock.control("pin alice 4826")["result"] as? String == "unlocked")
    }
}
