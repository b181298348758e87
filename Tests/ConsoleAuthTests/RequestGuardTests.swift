import ConsoleAuth
import Testing

/// Origin and CSRF checks of state-changing requests (docs/console-api.md).
struct RequestGuardTests {
    let guarding = RequestGuard(allowedOrigins: ["https://door.local:8443", "https://192.0.2.10:8443"])
    let session = RequestAuth.session(csrf: "the-sessions-csrf-token")
    let own = "https://door.local:8443"

    @Test func safeMethodsPassWithoutOriginOrToken() {
        #expect(guarding.check(method: "GET", origin: nil, referer: nil, csrfToken: nil, auth: session) == .allow)
        #expect(guarding.check(method: "HEAD", origin: "https://evil.example", referer: nil, csrfToken: nil, auth: session) == .allow)
    }

    @Test func aSessionPostNeedsItsOwnOriginAndTheSessionsToken() {
        #expect(guarding.check(method: "POST", origin: own, referer: nil, csrfToken: "the-sessions-csrf-token", auth: session) == .allow)
        #expect(guarding.check(method: "POST", origin: "HTTPS://192.0.2.10:8443", referer: nil, csrfToken: "the-sessions-csrf-token", auth: session) == .allow)
        #expect(guarding.check(method: "POST", origin: nil, referer: nil, csrfToken: "the-sessions-csrf-token", auth: session) == .refuse(.origin))
        #expect(guarding.check(method: "POST", origin: "https://evil.example", referer: nil, csrfToken: "the-sessions-csrf-token", auth: session) == .refuse(.origin))
        #expect(guarding.check(method: "POST", origin: "https://door.local:8444", referer: nil, csrfToken: "the-sessions-csrf-token", auth: session) == .refuse(.origin))
        #expect(guarding.check(method: "POST", origin: "http://door.local:8443", referer: nil, csrfToken: "the-sessions-csrf-token", auth: session) == .refuse(.origin))
        #expect(guarding.check(method: "POST", origin: "null", referer: nil, csrfToken: "the-sessions-csrf-token", auth: session) == .refuse(.origin))
        #expect(guarding.check(method: "POST", origin: own, referer: nil, csrfToken: nil, auth: session) == .refuse(.csrf))
        #expect(guarding.check(method: "POST", origin: own, referer: nil, csrfToken: "", auth: session) == .refuse(.csrf))
        #expect(guarding.check(method: "POST", origin: own, referer: nil, csrfToken: "the-sessions-csrf-tokeN", auth: session) == .refuse(.csrf))
        #expect(guarding.check(method: "DELETE", origin: own, referer: nil, csrfToken: nil, auth: session) == .refuse(.csrf), "any method but GET and HEAD changes state")
    }

    /// Without Origin, the Referer's origin counts; a foreign Referer does not.
    @Test func theReferersOriginStandsInForAMissingOrigin() {
        #expect(guarding.check(method: "POST", origin: nil, referer: "https://door.local:8443/users?q=a", csrfToken: "the-sessions-csrf-token", auth: session) == .allow)
        #expect(guarding.check(method: "POST", origin: nil, referer: "https://door.local:8443.evil.example/", csrfToken: "the-sessions-csrf-token", auth: session) == .refuse(.origin))
        #expect(guarding.check(method: "POST", origin: "https://evil.example", referer: "https://door.local:8443/", csrfToken: "the-sessions-csrf-token", auth: session) == .refuse(.origin), "a foreign Origin is not overruled")
    }

    /// The login form has no session (no CSRF token yet), but its Origin is checked.
    @Test func aPostWithoutSessionNeedsOnlyTheOrigin() {
        #expect(guarding.check(method: "POST", origin: own, referer: nil, csrfToken: nil, auth: .none) == .allow)
        #expect(guarding.check(method: "POST", origin: "https://evil.example", referer: nil, csrfToken: nil, auth: .none) == .refuse(.origin))
    }

    @Test func aBearerPostNeedsNoTokenOrOrigin() {
        #expect(guarding.check(method: "POST", origin: nil, referer: nil, csrfToken: nil, auth: .bearer) == .allow)
        #expect(GuardRefusal.csrf.status == 403 && GuardRefusal.origin.rawValue == "origin")
    }

    @Test func defaultPortsAreTheSameOrigin() {
        let standard = RequestGuard(allowedOrigins: ["https://door.local"])
        #expect(standard.check(method: "POST", origin: "https://door.local:443", referer: nil, csrfToken: nil, auth: .none) == .allow)
    }
}
