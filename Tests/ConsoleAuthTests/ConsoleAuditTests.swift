import ConsoleAuth
import TemplateStore
import Testing

/// Each console action leaves an audit row naming the account, and no secret.
struct ConsoleAuditTests {
    @Test func actionsAreAuditedWithoutSecrets() throws {
        let fixture = try Fixture()
        defer { fixture.remove() }
        let code = try fixture.setupCode.issue()
        try fixture.setupCode.redeem(code: code, name: "alice", password: "correct horse battery")
        _ = try fixture.sessions.login(name: "alice", password: "wrong password!", from: "192.0.2.7")
        let session = try #require(try fixture.sessions.login(name: "alice", password: "correct horse battery", from: "192.0.2.7").success)
        try fixture.accounts.add(name: "bob", role: .viewer, password: "bobs long password", by: "alice")
        let token = try fixture.tokens.create(name: "backup-script", role: .viewer, by: "alice")
        try fixture.tokens.revoke(name: "backup-script", by: "alice")
        try fixture.sessions.logout(token: session.token)
        let rows = try fixture.store.auditEntries(limit: 100)
        #expect(rows.map(\.event) == ["console-setup-code", "console-setup", "console-login-failed", "console-login", "console-account-added",
                                      "console-token-created", "console-token-revoked", "console-logout"])
        #expect(rows.dropFirst().allSatisfy { $0.user == "alice" })
        let text = rows.map { "\($0.event) \($0.user ?? "") \($0.detail ?? "")" }.joined(separator: "\n")
        for secret in [code, session.token, session.csrf, token, "correct horse battery", "wrong password!", "bobs long password"] {
            #expect(!text.contains(secret))
        }
        #expect(text.contains("192.0.2.7"))
    }
}
