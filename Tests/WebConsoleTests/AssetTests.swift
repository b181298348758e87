import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import WebConsole

/// An element read by Foundation's XMLParser: the pages must be well-formed XML as well as HTML.
final class Element {
    let name: String
    let attributes: [String: String]
    var children: [Element] = []
    var text = ""

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// This element and every element below it, in document order.
    var all: [Element] { [self] + children.flatMap(\.all) }
    /// The text of this element and everything below it.
    var allText: String { text + children.map(\.allText).joined() }

    func first(id: String) -> Element? { all.first { $0.attributes["id"] == id } }
    func elements(_ name: String) -> [Element] { all.filter { $0.name == name } }
}

final class TreeBuilder: NSObject, XMLParserDelegate {
    let document = Element(name: "#document", attributes: [:])
    var stack: [Element] = []
    var failure: String?

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
                attributes attributeDict: [String: String] = [:]) {
        let element = Element(name: elementName, attributes: attributeDict)
        (stack.last ?? document).children.append(element)
        stack.append(element)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        _ = stack.popLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        stack.last?.text += string
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        failure = "line \(parser.lineNumber), column \(parser.columnNumber): \(parseError)"
    }
}

/// The document's root element, or nil after recording why it does not parse.
func parseXML(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> Element? {
    let parser = XMLParser(data: Data(text.utf8))
    let builder = TreeBuilder()
    parser.delegate = builder
    let parsed = parser.parse()
    guard parsed, builder.failure == nil, let root = builder.document.children.first else {
        Issue.record("not well-formed: \(builder.failure ?? "parse failed")", sourceLocation: sourceLocation)
        return nil
    }
    return root
}

/// The ids the browser test and the scripts rely on, page by page.
let requiredIDs: [ConsolePage: [String]] = [
    .login: ["login-name", "login-password", "login-submit", "alert"],
    .setup: ["setup-code", "setup-name", "setup-password", "setup-repeat", "setup-submit", "alert"],
    .dashboard: ["event-list", "door-state", "door-mode", "health-table", "logout", "alert"],
    .users: ["user-table", "user-search", "user-editor", "schedule-list", "logout", "alert"],
    .enroll: ["enroll-name", "enroll-label", "enroll-submit", "enroll-prompt", "enroll-result", "logout", "alert"],
    .log: ["log-table", "log-csv", "log-older", "logout", "alert"],
    .plots: ["plot-latency", "plot-identify", "plot-hourly", "logout", "alert"],
    .settings: ["settings-text", "settings-save", "settings-problems", "logout", "alert"],
    .accounts: ["account-table", "token-value", "token-copy", "logout", "alert"],
]

let lockIDs = ["screen-touch", "screen-pin", "screen-lockout", "screen-open", "use-pin", "pin-dots", "pin-ok", "pin-cancel",
               "key-erase", "lockout-text", "lock-message"] + (0...9).map { "key-\($0)" }

func page(_ page: ConsolePage) -> String {
    page.needsSession
        ? ConsoleAssets.html(page, csrf: "csrf-token-value", account: "alice", role: "admin")
        : ConsoleAssets.html(page, csrf: nil, account: nil, role: nil)
}

/// What the Content-Security-Policy would block, or break: inline scripts and styles, event-handler
/// attributes, javascript: URLs, scripts and styles from anywhere but /assets/.
func cspProblems(_ root: Element) -> [String] {
    var problems: [String] = []
    for element in root.all {
        if element.name == "style" { problems.append("a <style> element") }
        if element.attributes["style"] != nil { problems.append("a style attribute on <\(element.name)>") }
        for (name, value) in element.attributes {
            if name.lowercased().hasPrefix("on") { problems.append("\(name) on <\(element.name)>") }
            if value.lowercased().trimmingCharacters(in: .whitespaces).hasPrefix("javascript:") { problems.append("a javascript: URL") }
        }
        if element.name == "script" {
            if !(element.attributes["src"] ?? "").hasPrefix("/assets/") { problems.append("a script not from /assets/") }
            if !element.allText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { problems.append("an inline script") }
        }
        if element.name == "link", element.attributes["rel"] == "stylesheet", !(element.attributes["href"] ?? "").hasPrefix("/assets/") {
            problems.append("a stylesheet not from /assets/")
        }
    }
    return problems
}

/// Links and sources that leave the console's own origin (nothing may come from the network).
func foreignReferences(_ root: Element) -> [String] {
    root.all.flatMap { element in
        ["href", "src", "action"].compactMap { name in
            guard let value = element.attributes[name] else { return nil }
            let local = (value.hasPrefix("/") && !value.hasPrefix("//")) || value.hasPrefix("#") || value.hasPrefix("data:")
            return local ? nil : "\(name)=\"\(value)\" on <\(element.name)>"
        }
    }
}

/// Inputs, selects and textareas without a <label for> naming them.
func unlabelled(_ root: Element) -> [String] {
    let labelled = Set(root.elements("label").compactMap { $0.attributes["for"] })
    return root.all.filter { element in
        switch element.name {
        case "input": !["hidden", "submit", "button", "reset"].contains(element.attributes["type"] ?? "text")
        case "select", "textarea": true
        default: false
        }
    }.compactMap { element in
        guard let id = element.attributes["id"] else { return "<\(element.name)> without an id" }
        return labelled.contains(id) ? nil : "#\(id)"
    }
}

func duplicateIDs(_ root: Element) -> [String] {
    var seen: [String: Int] = [:]
    for element in root.all { if let id = element.attributes["id"] { seen[id, default: 0] += 1 } }
    return seen.filter { $0.value > 1 }.map(\.key).sorted()
}

@Suite struct AssetTests {
    @Test(arguments: ConsolePage.allCases)
    func everyPageIsWellFormedAndAccessible(_ which: ConsolePage) throws {
        let html = page(which)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        let root = try #require(parseXML(html))
        #expect(root.name == "html")
        #expect(root.attributes["lang"] == "en")
        let metas = root.elements("meta")
        #expect(metas.contains { $0.attributes["name"] == "viewport" && ($0.attributes["content"] ?? "").contains("width=device-width") })
        #expect(root.elements("title").first?.allText.contains(which.title) == true)
        let body = try #require(root.elements("body").first)
        #expect(body.attributes["data-page"] == which.rawValue)
        // The skip link comes first and leads to <main id="main">, which has the page's heading.
        #expect(body.children.first?.name == "a" && body.children.first?.attributes["href"] == "#main", "the skip link is the body's first element")
        let main = try #require(root.elements("main").first)
        #expect(main.attributes["id"] == "main")
        #expect(main.elements("h1").first?.allText == which.title)
        // The nav marks the page it is on, and only that one.
        let nav = try #require(root.elements("nav").first)
        #expect(nav.attributes["aria-label"] != nil)
        let current = nav.elements("a").filter { $0.attributes["aria-current"] == "page" }
        #expect(current.count == 1)
        #expect(current.first?.attributes["href"] == which.path)
        #expect(cspProblems(root).isEmpty, "CSP: \(cspProblems(root))")
        #expect(foreignReferences(root).isEmpty, "off the origin: \(foreignReferences(root))")
        #expect(unlabelled(root).isEmpty, "unlabelled: \(unlabelled(root))")
        #expect(duplicateIDs(root).isEmpty, "duplicate ids: \(duplicateIDs(root))")
        for id in requiredIDs[which] ?? [] {
            #expect(root.first(id: id) != nil, "#\(id) on \(which.rawValue)")
        }
        let alert = try #require(root.first(id: "alert"))
        #expect(alert.attributes["role"] == "alert")
        #expect(root.elements("script").map { $0.attributes["src"] } == ["/assets/console.js"])
    }

    @Test func theLiveRegionsAnnounceEventsAndEnrollmentPrompts() throws {
        let dashboard = try #require(parseXML(page(.dashboard)))
        #expect(dashboard.first(id: "event-list")?.attributes["aria-live"] == "polite")
        #expect(dashboard.first(id: "event-list")?.name == "ul")
        let enroll = try #require(parseXML(page(.enroll)))
        #expect(enroll.first(id: "enroll-prompt")?.attributes["aria-live"] == "polite")
        #expect(enroll.first(id: "enroll-result")?.attributes["aria-live"] == "polite")
        let settings = try #require(parseXML(page(.settings)))
        #expect(settings.first(id: "settings-problems")?.attributes["aria-live"] == "polite")
        let log = try #require(parseXML(page(.log)))
        #expect(log.first(id: "log-csv")?.attributes["href"] == "/api/v1/log.csv")
    }

    @Test func aHostileAccountNameAndTokenAreEscaped() throws {
        let account = "<script>alert('x')</script>\"&amp;"
        let csrf = "\"/><script src=\"//evil\"></script>"
        let role = "admin\" onload=\"x"
        let html = ConsoleAssets.html(.dashboard, csrf: csrf, account: account, role: role)
        #expect(!html.contains("<script>alert"))
        #expect(!html.contains("src=\"//evil\""))
        let root = try #require(parseXML(html))
        #expect(root.first(id: "account-name")?.allText == account)
        #expect(root.elements("meta").first { $0.attributes["name"] == "csrf-token" }?.attributes["content"] == csrf)
        #expect(root.elements("body").first?.attributes["data-role"] == role)
        #expect(root.first(id: "logout")?.name == "button")
        #expect(cspProblems(root).isEmpty, "CSP: \(cspProblems(root))")
        #expect(root.elements("script").count == 1)
    }

    @Test func signedOutPagesHaveNoTokenAndNoLogout() throws {
        for which in [ConsolePage.login, .setup] {
            let root = try #require(parseXML(ConsoleAssets.html(which, csrf: nil, account: nil, role: nil)))
            #expect(!root.elements("meta").contains { $0.attributes["name"] == "csrf-token" })
            #expect(root.first(id: "logout") == nil)
            #expect(root.elements("body").first?.attributes["data-role"] == nil)
        }
    }

    @Test func escapeCoversTheFiveCharactersAndWhatXMLCannotCarry() {
        #expect(HTMLText.escape("a&b<c>d\"e'f") == "a&amp;b&lt;c&gt;d&quot;e&#39;f")
        #expect(HTMLText.escape("tab\tline\nok") == "tab\tline\nok")
        #expect(HTMLText.escape("bell\u{7}nul\u{0}") == "bell\u{FFFD}nul\u{FFFD}")
        #expect(HTMLText.escape("Zoë 🔑") == "Zoë 🔑")
    }

    @Test func pagePathsAndTitles() {
        #expect(ConsolePage.dashboard.path == "/")
        #expect(ConsolePage.users.path == "/users")
        #expect(ConsolePage.login.path == "/login")
        #expect(ConsolePage.setup.path == "/setup")
        #expect(Set(ConsolePage.allCases.map(\.path)).count == ConsolePage.allCases.count)
        #expect(ConsolePage.allCases.allSatisfy { !$0.title.isEmpty })
    }

    @Test func theLockScreenHasItsIDsAndNothingElse() throws {
        let root = try #require(parseXML(ConsoleAssets.lockScreenHTML))
        #expect(root.attributes["lang"] == "en")
        #expect(root.elements("meta").contains { $0.attributes["name"] == "viewport" })
        for id in lockIDs { #expect(root.first(id: id) != nil, "#\(id) on /lock") }
        #expect(root.elements("nav").isEmpty)
        #expect(root.elements("form").isEmpty)
        #expect(root.elements("a").isEmpty, "the kiosk screen links nowhere")
        #expect(foreignReferences(root).isEmpty, "off the origin: \(foreignReferences(root))")
        #expect(cspProblems(root).isEmpty, "CSP: \(cspProblems(root))")
        #expect(unlabelled(root).isEmpty)
        #expect(duplicateIDs(root).isEmpty)
        #expect(root.elements("script").map { $0.attributes["src"] } == ["/assets/lock.js"])
        #expect(root.first(id: "screen-touch")?.allText.contains("Touch the sensor") == true)
        #expect(root.first(id: "screen-touch")?.attributes["hidden"] == nil)
        for id in ["screen-pin", "screen-lockout", "screen-open"] { #expect(root.first(id: id)?.attributes["hidden"] != nil) }
    }

    @Test func theStaticFilesAreThereWithTheirTypes() throws {
        #expect(Set(ConsoleAssets.files.keys) == ["/assets/console.css", "/assets/console.js", "/assets/lock.css", "/assets/lock.js"])
        #expect(ConsoleAssets.files["/assets/console.js"]?.contentType.hasPrefix("text/javascript") == true)
        #expect(ConsoleAssets.files["/assets/console.css"]?.contentType.hasPrefix("text/css") == true)
        for (path, file) in ConsoleAssets.files {
            #expect(file.body.count > 500, "\(path) has a body")
            if path.hasSuffix(".js") {
                for banned in ["innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "new Function"] {
                    #expect(!file.body.contains(banned), "\(path) uses \(banned)")
                }
                #expect(file.body.hasPrefix("'use strict';"))
                #expect(!file.body.contains("http://") && !file.body.contains("https://"), "\(path) names no other origin")
            }
        }
        let css = try #require(ConsoleAssets.files["/assets/console.css"]?.body)
        #expect(css.contains(":focus-visible"))
        #expect(css.contains("@media"))
    }

    /// Every id a script looks up literally (`byId('…')`) is on a page that script runs on.
    @Test func theScriptsLookUpOnlyIDsThePagesHave() throws {
        let consoleIDs = Set(ConsolePage.allCases.compactMap { parseXML(page($0)) }.flatMap { $0.all.compactMap { $0.attributes["id"] } })
        let lockRoot = try #require(parseXML(ConsoleAssets.lockScreenHTML))
        let lockPageIDs = Set(lockRoot.all.compactMap { $0.attributes["id"] })
        for (path, ids) in [("/assets/console.js", consoleIDs), ("/assets/lock.js", lockPageIDs)] {
            let script = try #require(ConsoleAssets.files[path]?.body)
            let used = idsLookedUp(in: script)
            #expect(used.count > 5, "\(path) looks ids up")
            let missing = used.subtracting(ids)
            #expect(missing.isEmpty, "\(path) looks up ids no page has: \(missing.sorted())")
        }
    }

    func idsLookedUp(in script: String) -> Set<String> {
        var found: Set<String> = []
        var rest = script[...]
        while let range = rest.range(of: "byId('") {
            rest = rest[range.upperBound...]
            guard let end = rest.firstIndex(of: "'") else { break }
            let id = String(rest[..<end])
            if rest[end...].dropFirst().first == ")" { found.insert(id) }
            rest = rest[end...]
        }
        return found
    }

    /// node --check on each script, so a syntax error fails the suite (node is needed; v20 is
    /// what the project's machines have).
    @Test(.enabled(if: nodeExecutable != nil, "node is not installed"))
    func theScriptsParseInNode() throws {
        let node = try #require(nodeExecutable)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fpmod-js-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for path in ["/assets/console.js", "/assets/lock.js"] {
            let body = try #require(ConsoleAssets.files[path]?.body)
            let file = folder.appendingPathComponent(String(path.split(separator: "/").last ?? "script.js"))
            try body.write(to: file, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: node)
            process.arguments = ["--check", file.path]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "node --check \(path): \(message)")
        }
    }
}

/// node on the PATH (or /usr/bin/node), if any.
let nodeExecutable: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
    for folder in path.split(separator: ":") + ["/usr/bin"] {
        let candidate = "\(folder)/node"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
}()
