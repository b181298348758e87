import Foundation
import Glibc
import Testing

/// The CLI reads the service's replies with JSONValue's strict parser (issue 10: no
/// `[String: Any]`). The peer on the control socket here is a Python script answering fixed
/// lines, as a broken or hostile service would: what it sends keeps its kind, and what is not
/// strict JSON is refused with the byte where it goes wrong.
@Suite(.serialized)
struct ServiceReplyTests {
    /// Listens on `socket`; answers each line with `replies[verb]` (one connection may carry
    /// several lines: the CLI asks `status` first to see which port and store the service has).
    final class ScriptedPeer {
        let process = Process()

        init(socket: String, replies: [String: String]) throws {
            let table = try JSONSerialization.data(withJSONObject: replies)
            process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            process.arguments = ["-c", """
                import json, os, socket, sys
                path, replies = sys.argv[1], json.loads(sys.argv[2])
                s = socket.socket(socket.AF_UNIX); s.bind(path + ".tmp"); s.listen(8)
                os.rename(path + ".tmp", path)
                while True:
                    c, _ = s.accept()
                    for line in c.makefile("rb"):
                        words = line.decode().split()
                        c.sendall((replies.get(words[0] if words else "", '{"ok":false,"error":"no such verb"}') + "\\n").encode())
                    c.close()
                """, socket, String(decoding: table, as: UTF8.self)]
            try process.run()
            try waitFor("the scripted peer's socket") { FileManager.default.fileExists(atPath: socket) }
        }

        deinit {
            // SIGKILL: Foundation starts children with SIGTERM blocked, which Python keeps.
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// A config naming `socket` as the service's control socket, and the status line of a
    /// service that serves the CLI's store.
    static func setUp(_ cli: CLI) throws -> (config: [String], socket: String, status: String) {
        let socket = cli.directory + "/control.sock"
        let config = cli.directory + "/config.json"
        try #"{"board": "gpio-vm", "control": {"socket": "\#(socket)"}}"#.write(toFile: config, atomically: true, encoding: .utf8)
        let status = #""ok":true,"pid":4242,"port":"/dev/ttyFAKE","store":"\#(cli.directory)/store.db","module":"connected""#
        return (["--config", config], socket, status)
    }

    @Test func aUserNamedTrueStaysAStringAndNumbersAreNoBools() throws {
        let cli = CLI()
        let (config, socket, status) = try Self.setUp(cli)
        let list = #"{"ok":true,"users":[{"name":"true","displayName":"1","role":"admin","fingerprintUnlock":false,"#
            + #""hasPIN":1,"fingers":[{"label":"null","slot":true,"duress":1}]}]}"#
        let peer = try ScriptedPeer(socket: socket, replies: ["status": "{\(status)}", "list": list])
        defer { withExtendedLifetime(peer) {} }

        let text = try cli.run(config + ["list"])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("true (1) [admin, unlock off]"), "\(text.stdout)")
        // `true` is no slot number and `1` no duress flag (Foundation's NSNumber read them as 1 and true).
        #expect(text.stdout.contains("  - null: slot -1\n"), "\(text.stdout)")
        #expect(!text.stdout.contains("duress"), "\(text.stdout)")
        let json = try cli.run(config + ["list", "--json"])
        let user = try #require((json.json?["users"] as? [[String: Any]])?.first)
        #expect(user["name"] as? String == "true")
        #expect(user["displayName"] as? String == "1")
        #expect(user["hasPIN"] as? Bool == false, "1 is not a PIN flag: \(json.stdout)")
    }

    @Test func aReplyThatIsNotStrictJSONIsRefusedWithItsOffset() throws {
        let cli = CLI()
        let (config, socket, status) = try Self.setUp(cli)
        // Two "locked" keys: a lenient reader keeps one of them silently.
        let peer = try ScriptedPeer(socket: socket, replies: ["status": "{\(status),\"locked\":true,\"locked\":false}"])
        defer { withExtendedLifetime(peer) {} }
        let result = try cli.run(config + ["status"])
        #expect(result.status == 74, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("invalid JSON at byte"), "\(result.stderr)")
        #expect(result.stderr.contains(#"key "locked" appears twice"#), "\(result.stderr)")
        #expect(!result.stdout.contains("unlocked"))
    }

    @Test func onlyOkTrueIsASuccess() throws {
        let cli = CLI()
        let (config, socket, status) = try Self.setUp(cli)
        let replies = ["status": "{\(status.replacingOccurrences(of: #""ok":true"#, with: #""ok":1"#)),\"locked\":false}"]
        let peer = try ScriptedPeer(socket: socket, replies: replies)
        defer { withExtendedLifetime(peer) {} }
        let result = try cli.run(config + ["status"])
        #expect(result.status == 74, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("The service refused it"), "\(result.stderr)")
        #expect(!result.stdout.contains("unlocked"))
    }
}
