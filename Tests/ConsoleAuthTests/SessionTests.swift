import ConsoleAuth
import Foundation
import TemplateStore
import Testing

/// Logins, and sessions ending by idleness, age, logout and "log out everywhere".
struct SessionTests {
    @Test func aLoginStartsASessionTheCookieFinds() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.withAdmin()
        let session = try #require(try fixture.sessions.login(name: "alice", password: "correct horse battery", from: "192.0.2.7").success)
        #expect(session.token.count == 43 && session.csrf.count == 43 && session.token != session.csrf, "32 bytes, base64url")
        #expect(session.token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(session.expiresAt == fixture.clock.now + 12 * 3600)
        let found = try #require(try fixture.sessions.authenticate(cookieToken: session.token))
        #expect(found == ActiveSession(account: "alice", role: .admin, csrf: session.csrf, idleSeconds: 1800, expiresAt: session.expiresAt))
        #expect(try fixture.sessions.authenticate(cookieToken: session.csrf) == nil)
        #expect(try fixture.sessions.authenticate(cookieToken: "") == nil)
    }

    /// Tokens, codes and passwords are in the file only as hashes: a stolen database gives no
    /// live session, token or password.
    @Test func theDatabaseHoldsNoTokenCodeOrPassword() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let code = try fixture.setupCode.issue()
        try fixture.setupCode.redeem(code: code, name: "alice", password: "correct horse battery")
        let session = try #require(try fixture.sessions.login(name: "alice", password: "correct horse battery", from: "192.0.2.7").success)
        let token = try fixture.tokens.create(name: "backup-script", role: .viewer, by: "alice")
        let bytes = fixture.storeBytes()
        #expect(contains(bytes, "$argon2id$"), "the password hash is there, so the search would find text")
        for secret in [session.token, token, String(token.dropFirst(4)), code, code.replacingOccurrences(of: "-", with: ""), "correct horse battery"] {
            #expect(!contains(bytes, secret))
        }
    }

    /// A request within 30 minutes of the last one keeps the session; 30 minutes without one ends it.
    @Test func aSessionEndsAfterThirtyMinutesIdle() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.withAdmin()
        let session = try #require(try fixture.sessions.login(name: "alice", password: "correct horse battery", from: "::1").success)
        fixture.clock.advance(29 * 60)
        #expect(try fixture.sessions.authenticate(cookieToken: session.token) != nil)
        fixture.clock.advance(29 * 60)
        #expect(try fixture.sessions.authenticate(cookieToken: session.token) != nil, "the last request counts, not the login")
        fixture.clock.advance(30 * 60)
        #expect(try fixture.sessions.authenticate(cookieToken: session.token) == nil)
        fixture.clock.advance(-10 * 60)
        #expect(try fixture.sessions.authenticate(cookieToken: session.token) == nil, "an ended session is removed")
    }

    /// However busy, a session ends 12 hours after its login; both limits can be configured.
    @Test func aSessionEndsTwelveHoursAfterLogin() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.withAdmin()
        let session = try #require(try fixture.sessions.login(name: "alice", password: "correct horse battery", from: "::1").success)
        for _ in 0..<(12 * 3 - 1) {
            fixture.clock.advance(20 * 60)
            #expect(try fixture.sessions.authenticate(cookieToken: session.token) != nil)
        }
        fixture.clock.advance(20 * 60)
        #expect(try fixture.sessions.authenticate(cookieToken: session.token) == nil)

        let short = Sessions(store: fixture.store, clock: fixture.clock.clock, limits: SessionLimits(idleSeconds: 60, absoluteSeconds: 120))
        let other = try #require(try short.login(name: "alice", password: "correct horse battery", from: "::1").success)
        fixture.clock.advance(61)
        #expect(try short.authenticate(cookieToken: other.token) == nil)
    }

    @Test func logoutEndsOneSessionAndLogoutEverywhereAllOfAnAccounts() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.withAdmin()
        try fixture.accounts.add(name: "bob", role: .viewer, password: "bobs long password", by: "alice")
        let sessions = fixture.sessions
        let laptop = try #require(try sessions.login(name: "alice", password: "correct horse battery", from: "::1").success)
        let phone = try #require(try sessions.login(name: "alice", password: "correct horse battery", from: "::1").success)
        let tablet = try #require(try sessions.login(name: "alice", password: "correct horse battery", from: "::1").success)
        let bobs = try #require(try sessions.login(name: "bob", password: "bobs long password", from: "::1").success)
        #expect(bobs.role == .viewer)
        try sessions.logout(token: tablet.token)
        #expect(try sessions.authenticate(cookieToken: tablet.token) == nil)
        #expect(try sessions.logoutEverywhere(account: "alice") == 2)
        #expect(try sessions.authenticate(cookieToken: laptop.token) == nil)
        #expect(try sessions.authenticate(cookieToken: phone.token) == nil)
        #expect(try sessions.authenticate(cookieToken: bobs.token)?.account == "bob")
    }

    /// A new password, and deleting an account, end its sessions.
    @Test func aNewPasswordOrADeletedAccountEndsItsSessions() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.withAdmin()
        try fixture.accounts.add(name: "bob", role: .viewer, password: "bobs long password", by: "alice")
        let before = try #require(try fixture.sessions.login(name: "bob", password: "bobs long password", from: "::1").success)
        try fixture.accounts.setPassword(of: "bob", to: "bobs new password", by: "alice")
        #expect(try fixture.sessions.authenticate(cookieToken: before.token) == nil)
        #expect(try fixture.sessions.login(name: "bob", password: "bobs long password", from: "::1").failure == .wrongCredentials)
        let after = try #require(try fixture.sessions.login(name: "bob", password: "bobs new password", from: "::1").success)
        try fixture.accounts.delete(name: "bob", by: "alice")
        #expect(try fixture.sessions.authenticate(cookieToken: after.token) == nil)
    }

    @Test func expireOldRemovesEndedSessions() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.withAdmin()
        _ = try fixture.sessions.login(name: "alice", password: "correct horse battery", from: "::1")
        #expect(try fixture.sessions.expireOld() == 0)
        fixture.clock.advance(31 * 60)
        #expect(try fixture.sessions.expireOld() == 1)
    }
}
