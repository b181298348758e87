import Administration
import FingerprintProtocol
import ModuleSimulator
import TemplateStore
import Testing

@Suite(.serialized) struct EnrollTests {
    @Test func enrollTwoUsersThenIdentifyAndVerifyEach() throws {
        let bench = try Bench()
        let admin = try bench.open()
        let alice = try bench.enroll(admin, "alice")
        let bob = try bench.enroll(admin, "bob", label: "left-thumb", admin: true)
        #expect(alice.slot != bob.slot)
        #expect(Set(bench.server.library.keys) == [alice.slot, bob.slot])
        #expect(try bench.store.user(named: "bob")?.role == .admin)
        #expect(try bench.identify(admin, finger: "alice-right-index").matchedUser == "alice")
        #expect(try bench.identify(admin, finger: "bob-left-thumb").matchedUser == "bob")
        #expect(try bench.identify(admin, finger: "stranger").matchedUser == nil)
        #expect(try bench.verify(admin, user: "alice", finger: "alice-right-index").matchedUser == "alice")
        guard case .noMatch = try bench.verify(admin, user: "alice", finger: "bob-left-thumb") else {
            Issue.record("bob's finger verified as alice")
            return
        }
        #expect(bench.auditEvents.filter { $0 == "enroll" }.count == 2)
    }

    @Test func duplicateFingerIsRefusedAndNamed() throws {
        let bench = try Bench()
        let admin = try bench.open()
        try bench.enroll(admin, "alice")
        #expect(throws: AdministrationError.duplicateFinger(slot: 0, user: "alice", label: "right-index")) {
            try bench.enroll(admin, "bob", finger: "alice-right-index")
        }
        #expect(try bench.store.user(named: "bob") == nil)
        #expect(bench.server.library.count == 1)
        #expect(try bench.store.pendingIntents().isEmpty)
    }

    @Test func labelAlreadyEnrolledIsRefusedBeforeCapture() throws {
        let bench = try Bench()
        let admin = try bench.open()
        try bench.enroll(admin, "alice")
        #expect(throws: AdministrationError.fingerAlreadyEnrolled(user: "alice", label: "right-index", slot: 0)) {
            try admin.enroll(user: "alice", label: "right-index")
        }
    }

    @Test func poorCaptureIsRetried() throws {
        let bench = try Bench()
        let admin = try bench.open()
        var steps: [EnrollProgress] = []
        let result = try admin.enroll(user: "alice", captures: 2) { step in
            steps.append(step)
            switch step {
            case .placeFinger(1, _) where !steps.contains(where: { if case .retryScan = $0 { true } else { false } }):
                bench.server.touch("alice-finger", times: 1, quality: .poor)
            case .placeFinger:
                bench.server.touch("alice-finger", times: 1)
            default: break
            }
        }
        #expect(result.retries == 1)
        #expect(steps.contains(.retryScan(capture: 1, reason: steps.compactMap { if case .retryScan(_, let r) = $0 { r } else { nil } }.first ?? "")))
        #expect(steps.first == .placeFinger(capture: 1, of: 2))
        #expect(steps.contains(.liftFinger))
        #expect(try bench.identify(admin, finger: "alice-finger").matchedUser == "alice")
    }

    @Test(arguments: [2, 3]) func differentFingersFailTheMerge(captures: Int) throws {
        let bench = try Bench()
        let admin = try bench.open()
        #expect(throws: AdministrationError.capturesDiffer) {
            try admin.enroll(user: "alice", captures: captures) { step in
                if case .placeFinger(let n, _) = step { bench.server.touch(n == 1 ? "finger-a" : "finger-b", times: 1) }
            }
        }
        #expect(bench.server.library.isEmpty)
        #expect(try bench.store.users().isEmpty)
        #expect(try bench.store.pendingIntents().isEmpty)
    }

    @Test func r503FusesSixCapturesAndIdentifies() throws {
        let bench = try Bench(profile: .r503)
        let admin = try bench.open()
        let result = try bench.enroll(admin, "alice", captures: 6)
        #expect(result.captures == 6)
        #expect(try bench.identify(admin, finger: "alice-right-index").matchedUser == "alice")
        #expect(throws: AdministrationError.self) { try bench.enroll(admin, "bob", finger: "alice-right-index") }
    }

    @Test func fullLibraryIsRefusedBeforeAnyCapture() throws {
        let bench = try Bench(profile: .r503)
        let admin = try bench.open()
        let capacity = try #require(admin.module.capacity)
        let template = [UInt8](repeating: 1, count: 32)
        bench.server.withModule { module in module.configure { flash in for slot in 0..<capacity { flash.library[slot] = template } } }
        _ = try admin.module.readIndexTable()
        #expect(throws: AdministrationError.libraryFull(capacity: capacity)) { try admin.enroll(user: "alice") }
        #expect(try bench.store.users().isEmpty)
    }

    @Test func invalidCaptureCountAndUnknownUser() throws {
        let bench = try Bench()
        let admin = try bench.open()
        #expect(throws: AdministrationError.invalidCaptureCount(7, allowed: 2...6)) { try admin.enroll(user: "alice", captures: 7) }
        #expect(throws: StoreError.unknownUser("nobody")) { try admin.verify(user: "nobody") }
    }
}
