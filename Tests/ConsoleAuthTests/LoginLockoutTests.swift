import AccessPolicy
import ConsoleAuth
import TemplateStore
import Testing

/// Login failures use the policy's own counters (5 in a row: 30 s), per name, kept in the store.
struct LoginLockoutTests {
    @Test func fiveWrongPasswordsLockTheNameUntilRetryInSecondsHasPassed() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.withAdmin()
        let sessions = fixture.sessions
        for _ in 0..<4 {
            #expect(try sessions.login(name: "alice", password: "wrong password!", from: "::1").failure == .wrongCredentials)
        }
        #expect(try sessions.login(name: "alice", password: "wrong password!", from: "::1").failure == .lockedOut(retryInSeconds: 30))
        fixture.clock.advance(10)
        #expect(try sessions.login(name: "alice", password: "correct horse battery", from: "::1").failure == .lockedOut(retryInSeconds: 20),
                "the right password too, during the lockout")
        fixture.clock.advance(20)
        #expect(try sessions.login(name: "alice", password: "correct horse battery", from: "::1").success != nil)
        // The success reset the count: four more failures do not lock.
        for _ in 0..<4 {
            #expect(try sessions.login(name: "alice", password: "wrong password!", from: "::1").failure == .wrongCredentials)
        }
        #expect(LoginFailure.lockedOut(retryInSeconds: 30).status == 429)
    }

    /// A name that is no account answers exactly as a wrong password does, lockout included.
    @Test func anUnknownNameGetsTheSameAnswersAsAWrongPassword() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.withAdmin()
        var unknown: [LoginFailure?] = []
        var wrong: [LoginFailure?] = []
        for _ in 0..<6 {
            unknown.append(try fixture.sessions.login(name: "mallory", password: "correct horse battery", from: "::1").failure)
            wrong.append(try fixture.sessions.login(name: "alice", password: "correct horse batteryX", from: "::1").failure)
        }
        #expect(unknown == wrong)
        #expect(unknown.first == .wrongCredentials && unknown.last == .lockedOut(retryInSeconds: 30))
        #expect(try fixture.sessions.login(name: "not a name!", password: "correct horse battery", from: "::1").failure == .wrongCredentials)
    }

    /// A restart (a new store connection, new `Sessions`) keeps the count and the lockout.
    @Test func theCounterSurvivesReopeningTheStore() throws {
        var fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.withAdmin()
        for _ in 0..<3 { _ = try fixture.sessions.login(name: "alice", password: "wrong password!", from: "::1") }
        fixture.store = try fixture.open()
        _ = try fixture.sessions.login(name: "alice", password: "wrong password!", from: "::1")
        #expect(try fixture.sessions.login(name: "alice", password: "wrong password!", from: "::1").failure == .lockedOut(retryInSeconds: 30))
        fixture.store = try fixture.open()
        fixture.clock.advance(5)
        #expect(try fixture.sessions.login(name: "alice", password: "correct horse battery", from: "::1").failure == .lockedOut(retryInSeconds: 25))
        #expect(try fixture.store.consoleLoginFailures(of: "alice").consecutive == 5)
    }

    /// Thresholds that allow a permanent lockout disable the name; the default never does.
    @Test func aPermanentLockoutOnlyWithThresholdsThatAskForIt() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.withAdmin()
        #expect(SessionLimits.defaultLoginLockout.failuresForPermanentLockout == Int.max)
        let strict = Sessions(store: fixture.store, clock: fixture.clock.clock,
                              limits: SessionLimits(loginLockout: LockoutThresholds(failuresPerTimedLockout: 5, timedLockoutSeconds: 30,
                                                                                    failuresForPermanentLockout: 2)))
        _ = try strict.login(name: "alice", password: "wrong password!", from: "::1")
        #expect(try strict.login(name: "alice", password: "wrong password!", from: "::1").failure == .disabled)
        fixture.clock.advance(3600)
        #expect(try strict.login(name: "alice", password: "correct horse battery", from: "::1").failure == .disabled)
    }
}
