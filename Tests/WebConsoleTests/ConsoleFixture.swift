import ConsoleAuth
import ConsoleHTTP
import DoorLock
import Foundation
import JSONValue
import ServiceClient
import TemplateStore
import TestSupport
import Testing
@testable import WebConsole

/// A console over a real store in a scratch folder, its service sockets pointing into the
/// folder (nothing listens there: the service is "stopped" unless a test starts one), called
/// through its routes as the HTTP server calls them.
final class ConsoleFixture: @unchecked Sendable {
    static let origin = "https://door.test:8443"
    let scratch = ScratchFolder(prefix: "fpmod-console")
    let store: TemplateStore
    let context: ConsoleContext
    let routes: ConsoleRoutes
    let configPath: String

    init(configJSON: String? = nil) throws {
        configPath = scratch.file("config.json")
        let json = configJSON ?? """
            {"control": {"socket": "\(scratch.file("control.sock"))"}, "events": {"socket": "\(scratch.file("events.sock"))"},
             "console": {"enabled": true}}
            """
        try json.write(toFile: configPath, atomically: true, encoding: .utf8)
        let config = try LockConfig.load(path: configPath)
        store = try TemplateStore(databasePath: scratch.file("store.db"), keyPath: scratch.file("store.key"))
        context = ConsoleContext(console: config.console, config: config, configPath: configPath, store: store,
                                 service: ServiceAddress(configPath: configPath, environment: [:], storeDatabase: store.databasePath),
                                 eventsSocket: scratch.file("events.sock"), origins: [Self.origin])
        routes = ConsoleRoutes(context: context)
    }

    deinit { scratch.remove() }

    /// A signed-in browser: its cookie and CSRF token.
    struct Browser {
        var cookie: String
        var csrf: String
    }

    func request(_ method: String, _ path: String, json: String? = nil, browser: Browser? = nil, origin: String? = origin,
                 csrf: String? = nil, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        var all = headers
        if json != nil { all.append(("content-type", "application/json")) }
        if let origin { all.append(("origin", origin)) }
        if let browser { all.append(("cookie", "fpmod_session=\(browser.cookie)")) }
        if let token = csrf ?? browser?.csrf { all.append(("x-csrf-token", token)) }
        let pathOnly = String(path.prefix { $0 != "?" })
        let query: [(name: String, value: String)] = path.split(separator: "?", maxSplits: 1).dropFirst().first.map { text in
            text.split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }
        } ?? []
        return routes.respond(to: HTTPRequest(method: method, path: pathOnly, query: query, headers: all,
                                              body: Array((json ?? "").utf8), remoteAddress: "192.0.2.7"))
    }

    /// The first admin, made with a setup code as a new user would.
    func setUp(name: String = "alice", password: String = "correct horse battery") throws -> Browser {
        let code = try SetupCode(store: store).issue()
        let response = request("POST", "/api/v1/setup", json: #"{"code":"\#(code)","name":"\#(name)","password":"\#(password)"}"#)
        try #require(response.status == 200, "setup answered \(response.status): \(Self.text(response))")
        return try browser(from: response)
    }

    func logIn(_ name: String, _ password: String) throws -> Browser {
        let response = request("POST", "/api/v1/login", json: #"{"name":"\#(name)","password":"\#(password)"}"#)
        try #require(response.status == 200, "login answered \(response.status): \(Self.text(response))")
        return try browser(from: response)
    }

    func browser(from response: HTTPResponse) throws -> Browser {
        let setCookie = try #require(response.headers.first { $0.name == "Set-Cookie" }?.value)
        let token = String(setCookie.dropFirst("fpmod_session=".count).prefix { $0 != ";" })
        let csrf = try #require(Self.json(response)["csrf"]?.stringValue)
        return Browser(cookie: token, csrf: csrf)
    }

    static func text(_ response: HTTPResponse) -> String {
        guard case .bytes(let bytes) = response.body else { return "(a stream)" }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func json(_ response: HTTPResponse) -> JSONValue {
        (try? JSONValue(parsing: text(response))) ?? .null
    }
}
