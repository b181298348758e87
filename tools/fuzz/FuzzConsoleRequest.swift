// libFuzzer entry point for the web console's request handling: the input is a request as
// libmicrohttpd hands it over (method, path, query, headers, body — the HTTP framing itself is
// libmicrohttpd's, a Debian library), answered by ConsoleRoutes over a real scratch store,
// with no session and no token, as an attacker on the network would call it. Built by
// tools/fuzz.sh against the instrumented libraries.
// Input: "METHOD PATH[?QUERY]" on the first line, then "name: value" header lines, an empty
// line, and the body.
// Invariants: no crash or hang; nobody signed in, so no user, account or token appears in the
// store and no answer is a 2xx to a request that changes something (POST, PUT, PATCH, DELETE)
// other than signing in, which fails without an account.

import ConsoleHTTP
import DoorLock
import Foundation
import ServiceClient
import TemplateStore
import WebConsole

nonisolated(unsafe) var fixture: (routes: ConsoleRoutes, store: TemplateStore)?

func console() -> (routes: ConsoleRoutes, store: TemplateStore) {
    if let fixture { return fixture }
    let directory = "/dev/shm/fpmod-fuzz-console-\(getpid())"
    try? FileManager.default.removeItem(atPath: directory)
    try! FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let configPath = directory + "/config.json"
    try! """
        {"control": {"socket": "\(directory)/control.sock"}, "events": {"socket": "\(directory)/events.sock"}, "console": {"enabled": true}}
        """.write(toFile: configPath, atomically: true, encoding: .utf8)
    let config = try! LockConfig.load(path: configPath)
    let store = try! TemplateStore(databasePath: directory + "/store.db", keyPath: directory + "/store.key")
    let context = ConsoleContext(console: config.console, config: config, configPath: configPath, store: store,
                                 service: ServiceAddress(configPath: configPath, environment: [:], storeDatabase: store.databasePath),
                                 eventsSocket: directory + "/events.sock", origins: ["https://door.test:8443"])
    let made = (ConsoleRoutes(context: context), store)
    fixture = made
    return made
}

func request(from bytes: [UInt8]) -> HTTPRequest {
    var lines: [String] = []
    var index = 0
    var body: [UInt8] = []
    while index < bytes.count {
        guard let end = bytes[index...].firstIndex(of: 0x0A) else {
            lines.append(String(decoding: bytes[index...], as: UTF8.self))
            index = bytes.count
            break
        }
        let line = String(decoding: bytes[index..<end], as: UTF8.self)
        index = end + 1
        if line.isEmpty && !lines.isEmpty {
            body = Array(bytes[index...])
            break
        }
        lines.append(line)
    }
    let first = (lines.first ?? "GET /").split(separator: " ", maxSplits: 1).map(String.init)
    let method = first.first ?? "GET"
    let target = first.count > 1 ? first[1] : "/"
    let path = String(target.prefix { $0 != "?" })
    let query: [(name: String, value: String)] = target.split(separator: "?", maxSplits: 1).dropFirst().first.map { text in
        text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            return (parts.first ?? "", parts.count > 1 ? parts[1] : "")
        }
    } ?? []
    let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
        guard let colon = line.firstIndex(of: ":") else { return nil }
        return (String(line[..<colon]).lowercased(), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces))
    }
    return HTTPRequest(method: method, path: path.isEmpty ? "/" : path, query: query, headers: headers, body: body,
                       remoteAddress: "192.0.2.7", isSecure: true)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConsoleRequest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let (routes, store) = console()
    let incoming = request(from: Array(UnsafeBufferPointer(start: data, count: size)))
    let response = routes.respond(to: incoming)
    if !(100...599).contains(response.status) { fatalError("status \(response.status) for \(incoming.method) \(incoming.path)") }
    let changing = ["POST", "PUT", "PATCH", "DELETE"].contains(incoming.method.uppercased())
    if changing && (200...299).contains(response.status) && !incoming.path.hasSuffix("/login") && !incoming.path.hasSuffix("/logout") {
        fatalError("\(incoming.method) \(incoming.path) answered \(response.status) to a caller who is not signed in")
    }
    if let users = try? store.users(), !users.isEmpty { fatalError("a user appeared without a sign-in: \(users.map(\.name))") }
    if let accounts = try? store.consoleAccounts(), !accounts.isEmpty { fatalError("a console account appeared without a sign-in") }
    return 0
}

/// FPMOD_FUZZ_WRITE_SEEDS=DIR: write requests the console answers (signed in or not) to DIR and exit.
@_cdecl("LLVMFuzzerInitialize")
public func writeSeeds(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> CInt {
    guard let directory = ProcessInfo.processInfo.environment["FPMOD_FUZZ_WRITE_SEEDS"] else { return 0 }
    let seeds = [
        "GET /\n\n",
        "GET /api/v1/status\nauthorization: Bearer abc\n\n",
        "GET /api/v1/log?limit=20&before=5\ncookie: fpmod_session=xyz\n\n",
        "POST /api/v1/login\norigin: https://door.test:8443\ncontent-type: application/json\n\n{\"name\":\"admin\",\"password\":\"correct horse\"}",
        "POST /api/v1/setup\norigin: https://door.test:8443\ncontent-type: application/json\n\n{\"code\":\"123456\",\"name\":\"admin\",\"password\":\"correct horse battery\"}",
        "POST /api/v1/users/rename\norigin: https://door.test:8443\nx-csrf-token: t\ncookie: fpmod_session=s\ncontent-type: application/json\n\n{\"name\":\"alice\",\"newName\":\"bob\"}",
        "DELETE /api/v1/users/alice\norigin: https://door.test:8443\n\n",
        "POST /api/v1/door/unlock\norigin: https://door.test:8443\ncontent-type: application/json\n\n{\"pin\":\"4826\"}",
        "GET /assets/console.js\n\n",
        "GET /lock\n\n"
    ]
    for (index, seed) in seeds.enumerated() {
        _ = FileManager.default.createFile(atPath: "\(directory)/seed-\(index)", contents: Data(seed.utf8))
    }
    exit(0)
}
