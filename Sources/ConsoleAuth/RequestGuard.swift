/// How a request is authenticated, as far as the guard cares.
public enum RequestAuth: Equatable, Sendable {
    /// No session (the login and setup forms): Origin is checked, there is no CSRF token yet.
    case none
    /// A session cookie, and the session's CSRF token.
    case session(csrf: String)
    /// `Authorization: Bearer`: a browser never sends it by itself, so no CSRF or Origin check.
    case bearer
}

/// Why a request is refused (HTTP 403, `reason` in the error).
public enum GuardRefusal: String, Error, Equatable, Sendable, CustomStringConvertible {
    /// No Origin (nor Referer), or one that is not the console's own.
    case origin
    /// No X-CSRF-Token, or not the session's.
    case csrf

    public var status: Int { 403 }

    public var description: String {
        switch self {
        case .origin: "the request does not come from the console's own page (Origin); reload the console and try again"
        case .csrf: "the request lacks the session's CSRF token (X-CSRF-Token); reload the page and try again"
        }
    }
}

public enum GuardVerdict: Equatable, Sendable {
    case allow
    case refuse(GuardRefusal)
}

/// The cross-site checks of a state-changing request (docs/console-api.md): pure, no store.
public struct RequestGuard: Sendable {
    /// The console's own origins, `https://HOST:PORT`.
    public var allowedOrigins: [String]

    public init(allowedOrigins: [String]) {
        self.allowedOrigins = allowedOrigins
    }

    public static func isSafe(method: String) -> Bool {
        let upper = method.uppercased()
        return upper == "GET" || upper == "HEAD"
    }

    /// `origin`, `referer` and `csrfToken`: the request's headers (nil when absent).
    public func check(method: String, origin: String?, referer: String?, csrfToken: String?, auth: RequestAuth) -> GuardVerdict {
        if Self.isSafe(method: method) || auth == .bearer { return .allow }
        // Origin, or the origin of the Referer when a browser left Origin out.
        guard let claimed = origin.flatMap(Self.normalised) ?? referer.flatMap(Self.origin(ofURL:)),
              allowedOrigins.compactMap(Self.normalised).contains(claimed) else { return .refuse(.origin) }
        guard case .session(let expected) = auth else { return .allow }
        guard let csrfToken, !csrfToken.isEmpty, Secrets.equal(csrfToken, expected) else { return .refuse(.csrf) }
        return .allow
    }

    /// `scheme://host[:port]` lowercased, the scheme's default port left out; nil for "null"
    /// (a sandboxed or file page) and anything that is not an origin.
    static func normalised(_ origin: String) -> String? {
        var text = origin.trimmingCharacters(in: .whitespaces).lowercased()
        if text.hasSuffix("/") { text.removeLast() }
        guard let schemeEnd = text.range(of: "://") else { return nil }
        let scheme = text[..<schemeEnd.lowerBound]
        guard scheme == "https" || scheme == "http" else { return nil }
        let host = text[schemeEnd.upperBound...]
        guard !host.isEmpty, !host.contains(where: { "/?#@ ".contains($0) }) else { return nil }
        for (defaultScheme, port) in [("https", ":443"), ("http", ":80")] where scheme == defaultScheme && host.hasSuffix(port) {
            return "\(scheme)://\(host.dropLast(port.count))"
        }
        return text
    }

    static func origin(ofURL url: String) -> String? {
        guard let schemeEnd = url.range(of: "://") else { return nil }
        let rest = url[schemeEnd.upperBound...]
        let end = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
        return normalised(String(url[..<end]))
    }
}
