import ConsoleAuth
import TemplateStore
import Testing

struct BearerTokenTests {
    @Test func aTokenAuthenticatesUntilRevoked() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        try fixture.withAdmin()
        let token = try fixture.tokens.create(name: "backup-script", role: .viewer, by: "alice")
        #expect(token.hasPrefix("fpm_") && token.count == 4 + 43)
        #expect(throws: StoreError.duplicateConsoleToken("backup-script")) { try fixture.tokens.create(name: "backup-script", role: .admin, by: "alice") }
        fixture.clock.advance(60)
        let found = try #require(try fixture.tokens.authenticate(bearer: token))
        #expect(found.name == "backup-script" && found.role == .viewer && found.createdBy == "alice")
        #expect(found.lastUsed?.timeIntervalSince1970 == fixture.clock.now)
        #expect(try fixture.tokens.list().map(\.name) == ["backup-script"])
        #expect(try fixture.tokens.authenticate(bearer: String(token.dropFirst(4))) == nil, "the prefix belongs to it")
        #expect(try fixture.tokens.authenticate(bearer: token + "x") == nil)
        try fixture.tokens.revoke(name: "backup-script", by: "alice")
        #expect(try fixture.tokens.authenticate(bearer: token) == nil)
        #expect(throws: StoreError.unknownConsoleToken("backup-script")) { try fixture.tokens.revoke(name: "backup-script", by: "alice") }
    }

    @Test func theAuthorizationHeaderGivesItsToken() {
        #expect(BearerTokens.token(fromAuthorization: "Bearer fpm_abc") == "fpm_abc")
        #expect(BearerTokens.token(fromAuthorization: "bearer  fpm_abc ") == "fpm_abc")
        #expect(BearerTokens.token(fromAuthorization: "Basic YWxpY2U6eA==") == nil)
        #expect(BearerTokens.token(fromAuthorization: "Bearer") == nil)
    }
}
