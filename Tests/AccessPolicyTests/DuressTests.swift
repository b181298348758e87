import Testing
@testable import AccessPolicy

@Suite("Duress finger")
struct DuressTests {
    @Test("a duress finger opens exactly like a normal one, plus only the silent alarm")
    func duressLooksNormal() {
        var normal = Harness()
        var duress = Harness()
        let plain = normal.match("alice")
        let coerced = duress.match("alice", duress: true)
        #expect(coerced.contains(.duressAlarm(user: "alice")))
        #expect(coerced.filter { $0 != .duressAlarm(user: "alice") } == plain)
        #expect(duress.state == normal.state)
    }

    @Test("no public event or audit row mentions duress")
    func duressNotPublic() {
        var lock = Harness()
        let effects = lock.match("alice", duress: true)
        for effect in effects {
            switch effect {
            case .event(let name, let fields):
                #expect(!name.contains("duress"))
                #expect(!fields.keys.contains { $0.contains("duress") })
                #expect(!fields.values.contains { $0.contains("duress") })
            case .audit(let name, _, let detail):
                #expect(!name.contains("duress") && !detail.contains("duress"))
            default:
                break
            }
        }
    }

    @Test("a refused duress finger still raises the silent alarm")
    func duressDuringLockout() {
        var lock = Harness()
        lock.noMatch(times: 5)
        let effects = lock.match("alice", duress: true)
        #expect(!effects.unlocked)
        #expect(effects.contains(.duressAlarm(user: "alice")))
    }
}
