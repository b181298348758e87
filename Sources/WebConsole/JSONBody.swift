import ConsoleHTTP
import JSONValue

/// A request's JSON object, read strictly: the media type must say JSON (a form post from a
/// foreign page cannot say so without a CORS preflight), nesting is bounded, and each key is
/// read with a type, an absent key told apart from an explicit `null`.
struct JSONBody {
    static let maximumDepth = 16
    let members: [String: JSONValue]

    init(_ request: HTTPRequest) throws(ConsoleFailure) {
        let type = request.header("content-type")?.split(separator: ";").first.map { $0.trimmingSpaces.lowercased() }
        guard type == "application/json" else {
            throw ConsoleFailure(415, "The body must be JSON.", fix: "Send Content-Type: application/json.")
        }
        switch Result(catching: { () throws(JSONParseError) in try JSONValue(parsing: request.body, maximumDepth: Self.maximumDepth) }) {
        case .success(.object(let members)):
            self.members = members
        case .success:
            throw ConsoleFailure.badRequest("The body must be a JSON object ({…}).")
        case .failure(let error):
            throw ConsoleFailure.badRequest("The body is not JSON: \(error).")
        }
    }

    func has(_ key: String) -> Bool { members[key] != nil }

    func string(_ key: String) throws(ConsoleFailure) -> String {
        guard let value = members[key] else { throw ConsoleFailure.badRequest("\"\(key)\" is missing.") }
        guard case .string(let text) = value else { throw ConsoleFailure.badRequest("\"\(key)\" must be a string.") }
        return text
    }

    /// nil when absent or null.
    func optionalString(_ key: String) throws(ConsoleFailure) -> String? {
        switch members[key] {
        case nil, .null?: return nil
        case .string(let text)?: return text
        default: throw ConsoleFailure.badRequest("\"\(key)\" must be a string or null.")
        }
    }

    func bool(_ key: String) throws(ConsoleFailure) -> Bool {
        guard has(key) else { throw ConsoleFailure.badRequest("\"\(key)\" is missing.") }
        return try bool(key, default: false)
    }

    func bool(_ key: String, default value: Bool) throws(ConsoleFailure) -> Bool {
        switch members[key] {
        case nil: return value
        case .bool(let flag)?: return flag
        default: throw ConsoleFailure.badRequest("\"\(key)\" must be true or false.")
        }
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text = text.dropFirst() }
        while text.last == " " || text.last == "\t" { text = text.dropLast() }
        return text
    }
}
