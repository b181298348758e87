import ConsoleHTTP
import JSONValue

/// A refusal on the way through a handler: its status, what is wrong and what to do, as the
/// API's error object (`{"error", "fix"}`) says it.
struct ConsoleFailure: Error, Sendable {
    var status: Int
    var message: String
    var fix: String?
    var extra: [String: JSONValue] = [:]

    init(_ status: Int, _ message: String, fix: String? = nil, extra: [String: JSONValue] = [:]) {
        self.status = status
        self.message = message
        self.fix = fix
        self.extra = extra
    }

    var response: HTTPResponse {
        var object = extra
        object["error"] = .string(message)
        if let fix { object["fix"] = .string(fix) }
        var headers: [(name: String, value: String)] = []
        if status == 401 { headers.append(("WWW-Authenticate", "Bearer realm=\"fpmod\"")) }
        if let retry = extra["retryInSeconds"]?.intValue { headers.append(("Retry-After", String(retry))) }
        return Reply.json(.object(object), status: status, headers: headers)
    }

    static func badRequest(_ message: String, fix: String? = nil) -> ConsoleFailure { ConsoleFailure(400, message, fix: fix) }
}

/// The few shapes of answer the console gives.
enum Reply {
    static func json(_ value: JSONValue, status: Int = 200, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers,
                     body: .bytes(Array(value.encoded.utf8)))
    }

    static let ok = json(["ok": true])

    static func noContent(headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: 204, headers: headers)
    }

    /// A page: the policy forbids inline script and style, and framing (clickjacking).
    static func html(_ text: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", text: text,
                     headers: [("Content-Security-Policy", contentSecurityPolicy)] + headers)
    }

    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'"

    static func redirect(_ location: String) -> HTTPResponse {
        HTTPResponse(status: 303, headers: [("Location", location)])
    }

    static func notFound(_ path: String) -> HTTPResponse {
        ConsoleFailure(404, "No such page or API path.", fix: "The API is documented in docs/console-api.md.").response
    }
}
