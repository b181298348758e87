import ConsoleAuth
import TemplateStore
import Testing

struct CookieAndRoleTests {
    @Test func theCookieIsHttpOnlySecureAndStrict() {
        #expect(SessionCookie.setting(token: "abc") == "fpmod_session=abc; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=43200")
        #expect(SessionCookie.clearing == "fpmod_session=; Path=/; HttpOnly; Secure; SameSite=Strict; Max-Age=0")
        #expect(SessionCookie.token(fromCookieHeader: "theme=dark; fpmod_session=abc-_1; other=x") == "abc-_1")
        #expect(SessionCookie.token(fromCookieHeader: "xfpmod_session=abc") == nil)
        #expect(SessionCookie.token(fromCookieHeader: "fpmod_session=") == nil)
    }

    @Test func onlyAnAdminMayChangeThings() {
        #expect(ConsoleRole.admin.mayChange)
        #expect(!ConsoleRole.viewer.mayChange)
    }

    @Test func theLastAdminStays() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.withAdmin()
        try fixture.accounts.add(name: "bob", role: .viewer, password: "bobs long password", by: "alice")
        #expect(throws: StoreError.duplicateConsoleAccount("bob")) { try fixture.accounts.add(name: "bob", role: .admin, password: "bobs long password", by: "alice") }
        #expect(throws: ConsoleAuthError.lastAdmin("alice")) { try fixture.accounts.delete(name: "alice", by: "alice") }
        try fixture.accounts.add(name: "carol", role: .admin, password: "carols long password", by: "alice")
        try fixture.accounts.delete(name: "alice", by: "carol")
        #expect(try fixture.accounts.list().map(\.name) == ["bob", "carol"])
    }
}
