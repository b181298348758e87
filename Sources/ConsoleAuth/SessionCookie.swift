/// The session cookie's header texts (docs/console-api.md).
public enum SessionCookie {
    public static let name = "fpmod_session"
    /// The attributes: never readable by scripts, never sent over plain HTTP or by another site.
    static let attributes = "Path=/; HttpOnly; Secure; SameSite=Strict"

    /// The `Set-Cookie` value for a session token (base64url, so nothing in it needs quoting).
    public static func setting(token: String, maxAge: Int = 43200) -> String {
        "\(name)=\(token); \(attributes); Max-Age=\(maxAge)"
    }

    /// The `Set-Cookie` value that removes the cookie (at logout).
    public static let clearing = "\(name)=; \(attributes); Max-Age=0"

    /// The session token in a request's `Cookie` header, if any.
    public static func token(fromCookieHeader header: String) -> String? {
        for pair in header.split(separator: ";") {
            let trimmed = pair.drop { $0 == " " }
            guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { continue }
            let value = trimmed[trimmed.index(after: equals)...]
            return value.isEmpty ? nil : String(value)
        }
        return nil
    }
}
