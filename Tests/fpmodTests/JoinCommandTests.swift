import FleetTrust
import Foundation
import Glibc
import JSONValue
import Posix
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

    /// The key pairs of joins not finished (`fleet-join-TAG-key.pem`).
    static func pendingKeys(_ door: CLI) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: door.directory)) ?? []).filter { $0.hasPrefix("fleet-join-") }
    }

    /// What a join whose answer was lost leaves: the door's key pair kept for `code` (as
    /// `fpmod join` writes it before it sends the request), and the code redeemed at the hub for
    /// that key (sent here with curl, its answer dropped).
    static func lostJoin(_ hub: RunningHub, code: String, door: CLI) throws -> (privateKeyPEM: String, certificate: String) {
        let request = try DoorRequest.make()
        let kept = door.directory + "/fleet-join-\(try JoinCode.tag(code))-key.pem"
        try AtomicFile.replace(kept, with: Array(request.privateKeyPEM.utf8), mode: 0o600)
        let body = JSONValue.object(["code": .string(code), "request": .string(request.requestPEM)]).encoded
        let answer = HubServeTests.curl(["--cacert", hub.authorityPath, "--data-binary", body, hub.base + "/v1/join"])
        let certificate = try #require((try? JSONValue(parsing: answer.output))?["certificate"]?.stringValue, "\(answer.output)")
        return (request.privateKeyPEM, certificate)
    }

    /// `fpmod join` through an `AnswerLosingRelay` that loses the answer on `connection` once the
    /// hub's log says `marker`. Connection 0 fetches the authority, 1 carries the join, 2 the
    /// certificate's first use.
    static func joinCutOff(_ hub: RunningHub, code: String, door: CLI, connection: Int, once marker: String) throws -> CLI.Result {
        let relay = try AnswerLosingRelay(hubPort: try #require(UInt16(hub.port)), losingConnection: connection, once: marker,
                                          inLog: hub.process.logPath)
        defer { relay.stop() }
        return try door.run(["join", "https://127.0.0.1:\(relay.port)", code, "--authority-sha256", hub.authoritySHA256])
    }

    /// Issue 28: the hub redeemed the code but the door never had the answer. The same
    /// `fpmod join` again asks with the key it kept and finishes: the same certificate, the same
    /// key, and nothing pending left. A mistyped code in between does not lose that key.
    @Test func aJoinWhoseAnswerWasLostFinishesWhenRunAgainWithItsKeptKey() throws {
        let hub = try RunningHub()
        let code = try hub.joinCode(for: "garage")
        let door = try Self.door()
        let lost = try Self.lostJoin(hub, code: code, door: door)

        // A code of the right form that is not this one: refused, and the kept key stays.
        let wrongCode = JoinCode.make()
        let mistyped = try door.run(["join", hub.base, wrongCode, "--authority-sha256", hub.authoritySHA256])
        #expect(mistyped.status == 1 && mistyped.stderr.contains("HTTP 403"), "\(mistyped.stderr)")
        #expect(Self.pendingKeys(door).count == 1 && Self.fleetFilesPresent(door).isEmpty, "\(Self.pendingKeys(door))")

        let joined = try door.run(["join", hub.base, code, "--authority-sha256", hub.authoritySHA256, "--json"])
        #expect(joined.status == 0, "\(joined.stderr) \(hub.process.log)")
        #expect(joined.json?["door"] as? String == "garage", "\(joined.stdout)")
        #expect(Self.fleetFilesPresent(door) == Self.fleetFiles && Self.pendingKeys(door).isEmpty, "\(Self.pendingKeys(door))")
        let key = try String(contentsOfFile: door.directory + "/fleet-door-key.pem", encoding: .utf8)
        let certificate = try String(contentsOfFile: door.directory + "/fleet-door-cert.pem", encoding: .utf8)
        #expect(key == lost.privateKeyPEM && certificate == lost.certificate)
        var info = stat()
        #expect(stat(door.directory + "/fleet-door-key.pem", &info) == 0 && info.st_mode & 0o077 == 0)
        #expect(hub.process.log.contains("door garage asked again"), "\(hub.process.log)")

        // The door works, as the one door the hub knows under that name.
        let synced = try door.run(["fleet", "sync", "--json"])
        #expect(synced.status == 0, "\(synced.stderr)")
        let listed = try hub.cli.run(["hub", "doors", "--json"])
        let doors = try #require(listed.json?["doors"] as? [[String: Any]], "\(listed.stdout)")
        #expect(doors.filter { $0["name"] as? String == "garage" && $0["joined"] as? Bool == true }.count == 1, "\(listed.stdout)")

        // It used its certificate: the code is spent, also for a machine that copied the key.
        let copy = try Self.door()
        try AtomicFile.replace(copy.directory + "/fleet-join-\(try JoinCode.tag(code))-key.pem", with: Array(lost.privateKeyPEM.utf8), mode: 0o600)
        let spent = try copy.run(["join", hub.base, code, "--authority-sha256", hub.authoritySHA256])
        #expect(spent.status == 1 && spent.stderr.contains("HTTP 403"), "\(spent.stderr)")
        #expect(Self.fleetFilesPresent(copy).isEmpty && Self.pendingKeys(copy).isEmpty)
        #expect(hub.stop() == 0)
    }

    /// The same through the network: the door's request reaches the hub, which redeems the code
    /// and answers, and the answer never reaches the door (`AnswerLosingRelay`). The join fails
    /// as unreachable keeping only its key pair (0600); the same join again finishes with it.
    @Test func aJoinCutOffAfterTheHubRedeemedTheCodeFinishesWhenRunAgain() throws {
        let hub = try RunningHub()
        let code = try hub.joinCode(for: "garage")
        let door = try Self.door()
        let cut = try Self.joinCutOff(hub, code: code, door: door, connection: 1, once: "door garage joined")
        #expect(cut.status == 69, "\(cut.stderr) \(hub.process.log)")
        #expect(cut.stderr.contains("could not be reached") && cut.stderr.contains("is kept"), "\(cut.stderr)")
        #expect(hub.process.log.contains("door garage joined"), "\(hub.process.log)")
        #expect(Self.fleetFilesPresent(door).isEmpty, "\(Self.fleetFilesPresent(door))")
        let pending = try #require(Self.pendingKeys(door).first, "no key kept")
        var info = stat()
        #expect(stat(door.directory + "/" + pending, &info) == 0 && info.st_mode & 0o077 == 0)
        let kept = try String(contentsOfFile: door.directory + "/" + pending, encoding: .utf8)
        #expect(!cut.stderr.contains(code) && !cut.stderr.contains("PRIVATE KEY"))

        let joined = try door.run(["join", hub.base, code, "--authority-sha256", hub.authoritySHA256])
        #expect(joined.status == 0, "\(joined.stderr) \(hub.process.log)")
        #expect(hub.process.log.contains("door garage asked again"), "\(hub.process.log)")
        #expect(Self.fleetFilesPresent(door) == Self.fleetFiles && Self.pendingKeys(door).isEmpty)
        #expect(try String(contentsOfFile: door.directory + "/fleet-door-key.pem", encoding: .utf8) == kept)
        let synced = try door.run(["fleet", "sync", "--json"])
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(hub.stop() == 0)
    }

    /// Cut off one step later: the join's answer arrived, and the door's first request with its
    /// certificate reached the hub — which spent the code with it — but its answer never came back.
    /// The door keeps the hub's answer with its key; the same join again tries that certificate
    /// rather than asking the hub with a code it has spent, and finishes.
    @Test func aJoinCutOffAfterItsCertificatesFirstUseFinishesWhenRunAgain() throws {
        let hub = try RunningHub()
        let code = try hub.joinCode(for: "garage")
        let door = try Self.door()
        let cut = try Self.joinCutOff(hub, code: code, door: door, connection: 2, once: "door garage used its certificate")
        #expect(cut.status == 69, "\(cut.stderr) \(hub.process.log)")
        #expect(cut.stderr.contains("the hub's answer with its certificate"), "\(cut.stderr)")
        #expect(hub.process.log.contains("door garage used its certificate: joined, its join code spent"), "\(hub.process.log)")
        #expect(Self.fleetFilesPresent(door).isEmpty, "\(Self.fleetFilesPresent(door))")
        let pending = Self.pendingKeys(door).sorted()
        #expect(pending.count == 2 && pending[0].hasSuffix("-answer.json") && pending[1].hasSuffix("-key.pem"), "\(pending)")
        for file in pending {
            var info = stat()
            #expect(stat(door.directory + "/" + file, &info) == 0 && info.st_mode & 0o077 == 0, "\(file)")
        }
        // The code is spent at the hub: asking with it again would be refused.
        #expect(hub.process.log.components(separatedBy: "used its certificate").count == 2)

        let joined = try door.run(["join", hub.base, code, "--authority-sha256", hub.authoritySHA256, "--json"])
        #expect(joined.status == 0, "\(joined.stderr) \(hub.process.log)")
        #expect(joined.json?["door"] as? String == "garage", "\(joined.stdout)")
        #expect(!hub.process.log.contains("door garage asked again"), "\(hub.process.log)")
        #expect(Self.fleetFilesPresent(door) == Self.fleetFiles && Self.pendingKeys(door).isEmpty, "\(Self.pendingKeys(door))")
        let synced = try door.run(["fleet", "sync", "--json"])
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(hub.stop() == 0)
    }

    /// A kept answer whose certificate the hub no longer takes (the door was revoked meanwhile)
    /// ends the join for good: refused, and nothing of it kept.
    @Test func aKeptAnswerForARevokedDoorIsRefusedAndForgotten() throws {
        let hub = try RunningHub()
        let code = try hub.joinCode(for: "garage")
        let door = try Self.door()
        let cut = try Self.joinCutOff(hub, code: code, door: door, connection: 2, once: "door garage used its certificate")
        #expect(cut.status == 69, "\(cut.stderr)")
        #expect(try hub.cli.run(["hub", "revoke-door", "garage"]).status == 0)
        let refused = try door.run(["join", hub.base, code, "--authority-sha256", hub.authoritySHA256])
        #expect(refused.status == 1 && refused.stderr.contains("HTTP 403"), "\(refused.stderr)")
        #expect(Self.fleetFilesPresent(door).isEmpty && Self.pendingKeys(door).isEmpty, "\(Self.pendingKeys(door))")
        #expect(hub.stop() == 0)
    }

    /// A door revoked after the hub redeemed its code (its answer lost) never joins with it.
    @Test func aRevokedDoorCannotFinishItsLostJoin() throws {
        let hub = try RunningHub()
        let code = try hub.joinCode(for: "garage")
        let door = try Self.door()
        _ = try Self.lostJoin(hub, code: code, door: door)
        #expect(try hub.cli.run(["hub", "revoke-door", "garage"]).status == 0)
        let refused = try door.run(["join", hub.base, code, "--authority-sha256", hub.authoritySHA256])
        #expect(refused.status == 1 && refused.stderr.contains("HTTP 403"), "\(refused.stderr)")
        #expect(Self.fleetFilesPresent(door).isEmpty && Self.pendingKeys(door).isEmpty)
        #expect(hub.stop() == 0)
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
        // Refused: no retry with this code helps, so not even the key pair is kept.
        #expect(Self.pendingKeys(second).isEmpty && !spent.stderr.contains("is kept"), "\(spent.stderr)")
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
