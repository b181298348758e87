import Foundation
import Glibc
import JSONValue
import TemplateStore
import Testing
import TestSupport

/// `fpmod join` as a maker runs it on the door, against a real `fpmod hub serve`: libcurl as
/// the door's client, the hub's authority pinned only once its fingerprint matched.
@Suite(.enabled(if: TemporaryPostgres.isInstalled, "needs Debian's postgresql (tools/install-deps.sh)"))
struct JoinCommandTests {
    static let fleetFiles = ["fleet.json", "fleet-door-key.pem", "fleet-door-cert.pem", "fleet-authority.pem"]

    /// A door with a store of its own (the join is audited in it).
    static func door() throws -> CLI {
        let door = CLI()
        _ = try TemplateStore(databasePath: door.directory + "/store.db", keyPath: door.directory + "/key", create: true)
        return door
    }

    static func fleetFilesPresent(_ door: CLI) -> [String] {
        fleetFiles.filter { FileManager.default.fileExists(atPath: door.directory + "/" + $0) }
    }

    @Test func aDoorJoinsWithTheCodeAndTheFingerprintAndItsCertificateWorks() throws {
        let hub = try RunningHub()
        let code = try hub.joinCode(for: "garage")
        let door = try Self.door()

        // The code as a person might type it: lower case, no dashes.
        let typed = code.lowercased().replacingOccurrences(of: "-", with: "")
        let joined = try door.run(["join", hub.base, typed, "--authority-sha256", hub.authoritySHA256.lowercased(), "--json"])
        #expect(joined.status == 0, "\(joined.stderr) \(hub.process.log)")
        #expect(joined.json?["door"] as? String == "garage", "\(joined.stdout)")
        #expect(Self.fleetFilesPresent(door) == Self.fleetFiles)
        // The door's key is its own: nobody else reads it.
        var info = stat()
        #expect(stat(door.directory + "/fleet-door-key.pem", &info) == 0 && info.st_mode & 0o077 == 0)
        let membership = try JSONValue(parsing: String(contentsOfFile: door.directory + "/fleet.json", encoding: .utf8))
        #expect(membership["hub"]?.stringValue == hub.base)
        #expect(membership["authoritySHA256"]?.stringValue == hub.authoritySHA256)
        // The pinned authority is the hub's, byte for byte.
        let pinned = try String(contentsOfFile: door.directory + "/fleet-authority.pem", encoding: .utf8)
        #expect(try pinned == String(contentsOfFile: hub.authorityPath, encoding: .utf8))

        // The hub lists the door as joined; the door's files let curl (another client) in as it.
        let listed = try hub.cli.run(["hub", "doors", "--json"])
        let doors = try #require(listed.json?["doors"] as? [[String: Any]], "\(listed.stdout)")
        #expect(doors.first?["joined"] as? Bool == true)
        let asDoor = HubServeTests.curl(["--cacert", door.directory + "/fleet-authority.pem", "--cert", door.directory + "/fleet-door-cert.pem",
                                         "--key", door.directory + "/fleet-door-key.pem", "--write-out", "%{http_code}", "--output", "/dev/null",
                                         hub.base + "/v1/changes?since=0"])
        #expect(asDoor.output == "200", "\(asDoor.output)")

        // The join is in the door's audit log, with the fingerprint it pinned.
        let log = try door.run(["log", "--json"])
        #expect(log.stdout.contains("fleet-join") && log.stdout.contains(hub.authoritySHA256), "\(log.stdout)")

        // Once joined, a second join is refused before anything is sent.
        let again = try door.run(["join", hub.base, try hub.joinCode(for: "porch"), "--authority-sha256", hub.authoritySHA256])
        #expect(again.status == 78, "\(again.stderr)")
        #expect(again.stderr.contains("follows the hub at \(hub.base) already"), "\(again.stderr)")
        #expect(hub.stop() == 0)
    }

    @Test func aFingerprintThatDiffersSendsNothingAndTheCodeStillWorks() throws {
        let hub = try RunningHub()
        let code = try hub.joinCode(for: "garage")
        let door = try Self.door()

        // Another fleet's fingerprint (someone in between, or the wrong hub): refused, nothing sent.
        let other = String(repeating: "AB:", count: 31) + "AB"
        let refused = try door.run(["join", hub.base, code, "--authority-sha256", other])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("nothing was sent") && refused.stderr.contains(hub.authoritySHA256), "\(refused.stderr)")
        #expect(Self.fleetFilesPresent(door).isEmpty)

        // No terminal to compare on and no fingerprint given: asked of nobody, refused.
        let unasked = try door.run(["join", hub.base, code], stdin: "y\n")
        #expect(unasked.status == 1, "\(unasked.stderr)")
        #expect(unasked.stderr.contains(hub.authoritySHA256) && unasked.stderr.contains("--authority-sha256"), "\(unasked.stderr)")
        #expect(Self.fleetFilesPresent(door).isEmpty)

        // The code was never spent.
        let joined = try door.run(["join", hub.base, code, "--authority-sha256", hub.authoritySHA256])
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(hub.stop() == 0)
    }

    @Test func aRefusedCodeLeavesNoFileAndSaysWhy() throws {
        let hub = try RunningHub()
        let code = try hub.joinCode(for: "garage")
        let first = try Self.door()
        #expect(try first.run(["join", hub.base, code, "--authority-sha256", hub.authoritySHA256]).status == 0)

        // The same code at a second machine: the hub refuses it; the door keeps nothing.
        let second = try Self.door()
        let spent = try second.run(["join", hub.base, code, "--authority-sha256", hub.authoritySHA256])
        #expect(spent.status == 1, "\(spent.stderr)")
        #expect(spent.stderr.contains("HTTP 403") && spent.stderr.contains("unknown, used or expired"), "\(spent.stderr)")
        #expect(Self.fleetFilesPresent(second).isEmpty)
        let log = try second.run(["log", "--json"])
        #expect(!log.stdout.contains("fleet-join"))
        #expect(hub.stop() == 0)
    }

    /// A new door has no store: the join makes it (and its folder) once the authority is
    /// confirmed, and a join that fails leaves neither behind.
    @Test func aNewDoorsStoreIsMadeByTheJoinAndGoneAgainWhenTheJoinFails() throws {
        let hub = try RunningHub()
        let code = try hub.joinCode(for: "garage")
        let door = CLI()
        let folder = door.directory + "/garage"
        let store = ["--store", folder + "/store.db"]
        // A wrong fingerprint: refused before anything is made.
        let wrong = String(repeating: "AB:", count: 31) + "AB"
        #expect(try door.run(store + ["join", hub.base, code, "--authority-sha256", wrong]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: folder))
        // A spent code: the store and the folder made for the join are removed again.
        let other = CLI()
        #expect(try other.run(["--store", other.directory + "/a/store.db", "join", hub.base, code, "--authority-sha256", hub.authoritySHA256]).status == 0)
        let spent = try door.run(store + ["join", hub.base, code, "--authority-sha256", hub.authoritySHA256])
        #expect(spent.status == 1, "\(spent.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder), "\((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])")
        // A good code: the door's store is there, with the join in its audit log.
        let joined = try door.run(store + ["join", hub.base, try hub.joinCode(for: "porch"), "--authority-sha256", hub.authoritySHA256])
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(try door.run(store + ["log", "--json"]).stdout.contains("fleet-join"))
        var info = stat()
        #expect(stat(folder, &info) == 0 && info.st_mode & 0o077 == 0, "the new folder is the store owner's alone")
        #expect(hub.stop() == 0)
    }

    @Test(arguments: [
        (["join", "http://hub.example:8443", "ABCDE-FGHJK-MNPQR-STUVW"], "https://HOST:PORT"),
        (["join", "https://hub.example:8443/v1/join", "ABCDE-FGHJK-MNPQR-STUVW"], "https://HOST:PORT"),
        (["join", "https://hub.example:99999", "ABCDE-FGHJK-MNPQR-STUVW"], "port"),
        (["join", "https://hub.example", "ABCDE-FGHJK-MNPQR-STUV0"], "not a join code"),
        (["join", "https://hub.example"], "<code>"),
        (["join", "https://hub.example", "ABCDE-FGHJK-MNPQR-STUVW", "--authority-sha256", "12:34"], "64 hex digits"),
    ])
    func malformedInputIsAUsageErrorBeforeAnythingIsSent(arguments: [String], named: String) throws {
        // The host is never asked: nothing listens at hub.example here, and the answer is a usage error.
        let door = try Self.door()
        let result = try door.run(arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains(named), "\(result.stderr)")
        #expect(Self.fleetFilesPresent(door).isEmpty)
    }

    @Test func aHubThatIsNotThereIsNamedAsUnreachable() throws {
        let door = try Self.door()
        // A port nothing listens on: connection refused at once.
        let result = try door.run(["join", "https://127.0.0.1:1", "ABCDE-FGHJK-MNPQR-STUVW"])
        #expect(result.status == 69, "\(result.stderr)")
        #expect(result.stderr.contains("could not be reached"), "\(result.stderr)")
        #expect(Self.fleetFilesPresent(door).isEmpty)
    }
}
