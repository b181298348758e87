import ConsoleHTTP
@testable import DoorFleet
import FleetTrust
import Foundation
import Testing
import TestSupport

/// The door's libcurl client against a real HTTPS server (libmicrohttpd, as the hub serves):
/// what it trusts, what it sends, and how much it takes.
@Suite struct HubClientTests {
    /// Echoes the request: method, path, the client certificate's name, the body's length.
    struct Echo: HTTPHandler {
        let authority: FleetAuthority
        func respond(to request: HTTPRequest) -> HTTPResponse {
            if request.path == "/big" { return HTTPResponse(status: 200, contentType: "text/plain", text: String(repeating: "x", count: 100_000)) }
            let door = request.clientCertificatePEM.flatMap { try? authority.verify(certificatePEM: $0, asDoor: true).commonName } ?? "-"
            return HTTPResponse(status: request.path == "/missing" ? 404 : 200, contentType: "text/plain",
                                text: "\(request.method) \(request.path) \(door) \(request.body.count)")
        }
    }

    final class Fixture {
        let scratch = ScratchFolder(prefix: "fpmod-hubclient")
        let authority: FleetAuthority
        let server: HTTPServer
        let address: HubAddress

        init() throws {
            authority = try FleetAuthority.make(name: "fleet")
            let hub = try authority.issueHubCertificate(hostNames: ["localhost"], ipAddresses: ["127.0.0.1"])
            var configuration = HTTPServerConfiguration()
            configuration.tls = (hub.certificate.certificatePEM, hub.privateKeyPEM)
            configuration.clientAuthorityPEM = authority.certificatePEM
            server = try HTTPServer(configuration: configuration, handler: Echo(authority: authority))
            address = try HubAddress(parsing: "https://127.0.0.1:\(server.port)")
        }

        func file(_ name: String, _ text: String) throws -> String {
            try text.write(toFile: scratch.file(name), atomically: true, encoding: .utf8)
            return scratch.file(name)
        }

        deinit {
            server.stop()
            scratch.remove()
        }
    }

    @Test func itSpeaksToAHubItsAuthorityIssuedAndPresentsTheDoorsCertificate() throws {
        let fixture = try Fixture()
        let trust = HubTrust.authority(path: try fixture.file("ca.pem", fixture.authority.certificatePEM))
        let anonymous = try HubClient(address: fixture.address, trust: trust)
        let got = try anonymous.send("GET", "/v1/changes?since=0")
        #expect(got.status == 200 && String(decoding: got.body, as: UTF8.self) == "GET /v1/changes - 0")
        let body = Array(#"{"code":"x"}"#.utf8)
        let posted = try anonymous.send("POST", "/v1/join", json: body)
        #expect(String(decoding: posted.body, as: UTF8.self) == "POST /v1/join - \(body.count)")
        // Any status is an answer.
        #expect(try anonymous.send("GET", "/missing").status == 404)

        let door = try DoorRequest.make()
        let issued = try fixture.authority.issueDoorCertificate(requestPEM: door.requestPEM, doorName: "garage")
        let identity = HubIdentity(certificatePath: try fixture.file("door.pem", issued.certificatePEM),
                                   keyPath: try fixture.file("door.key", door.privateKeyPEM))
        let asDoor = try HubClient(address: fixture.address, trust: trust, identity: identity)
        // Twice on one handle: the second request reuses what the first set up, nothing stale.
        for _ in 0..<2 {
            let answer = try asDoor.send("GET", "/v1/changes")
            #expect(String(decoding: answer.body, as: UTF8.self) == "GET /v1/changes garage 0")
        }
    }

    @Test func anotherAuthorityOrAnotherNameIsRefusedAndUnverifiedIsOnlyWhatItSays() throws {
        let fixture = try Fixture()
        // A hub another authority vouches for: the TLS handshake is refused.
        let stranger = try FleetAuthority.make(name: "another fleet")
        let strangers = try HubClient(address: fixture.address, trust: .authority(path: try fixture.file("other.pem", stranger.certificatePEM)))
        #expect(throws: HubClientError.self) { try strangers.send("GET", "/") }
        // The right authority, but a name the hub's certificate is not for.
        let wrongName = try HubClient(address: try HubAddress(parsing: "https://127.0.0.2:\(fixture.server.port)"),
                                      trust: .authority(path: try fixture.file("ca.pem", fixture.authority.certificatePEM)))
        #expect(throws: HubClientError.self) { try wrongName.send("GET", "/") }
        // Unverified (only to fetch the authority before joining) gets through to either.
        let unverified = try HubClient(address: fixture.address, trust: .unverified)
        #expect(try unverified.send("GET", "/").status == 200)
    }

    @Test func anAnswerLongerThanAllowedIsRefusedAndANoOneThereIsATransferError() throws {
        let fixture = try Fixture()
        let client = try HubClient(address: fixture.address, trust: .unverified)
        #expect(throws: HubClientError.tooLarge(limit: 10_000)) { try client.send("GET", "/big", maxBytes: 10_000) }
        #expect(try client.send("GET", "/big").body.count == 100_000)
        let nobody = try HubClient(address: try HubAddress(parsing: "https://127.0.0.1:1"), trust: .unverified)
        #expect {
            try nobody.send("GET", "/")
        } throws: { error in
            guard case .transfer = error as? HubClientError else { return false }
            return true
        }
    }
}

@Suite struct HubAddressTests {
    @Test(arguments: [
        ("https://hub.example:8443", "https://hub.example:8443"),
        ("https://hub.example", "https://hub.example:8443"),
        ("https://hub.example:9000/", "https://hub.example:9000"),
        ("https://192.168.1.10:8443", "https://192.168.1.10:8443"),
        ("https://[fd00::1]:8443", "https://[fd00::1]:8443"),
    ])
    func aHubsAddressIsReadAsHTTPSHostAndPort(text: String, url: String) throws {
        #expect(try HubAddress(parsing: text).description == url)
    }

    @Test(arguments: ["http://hub.example", "hub.example:8443", "https://", "https://hub.example:0", "https://hub.example:65536",
                      "https://user@hub.example", "https://hub.example/v1", "https://hub.example?x", "https://hub example",
                      "https://[fd00::1", "https://[hub]:8443", "https://hub.example:port", "https://hub_example"])
    func anythingElseIsRefusedWithTheFormToUse(text: String) {
        #expect(throws: FleetJoinError.self) { try HubAddress(parsing: text) }
    }
}

@Suite struct JoinCodeTests {
    @Test func aCodeIsReadAsTypedAndOnlyTheHubsAlphabetIsACode() {
        let code = JoinCode.make()
        #expect(JoinCode.isWellFormed(code))
        #expect(JoinCode.normalized(code.lowercased()) == code)
        #expect(JoinCode.normalized(code.replacingOccurrences(of: "-", with: " ")) == code)
        #expect(JoinCode.normalized(code.replacingOccurrences(of: "-", with: "")) == code)
        // 0, O, 1, I and L are never in a code: one typed with them was misread.
        #expect(JoinCode.normalized("ABCDE-FGHJK-MNPQR-STUV0") == nil)
        #expect(JoinCode.normalized("ABCDE-FGHJK-MNPQR-STUVI") == nil)
        #expect(JoinCode.normalized("ABCDE-FGHJK-MNPQR-STUV") == nil)
        #expect(!JoinCode.isWellFormed("abcde-fghjk-mnpqr-stuvw"))
        // 1,000 codes, no two alike (99 bits each).
        #expect(Set((0..<1_000).map { _ in JoinCode.make() }).count == 1_000)
    }

    @Test func aFingerprintMatchesAsTypedButNotAnother() {
        let presented = PresentedAuthority(certificatePEM: "", sha256Fingerprint: "AB:CD:" + String(repeating: "01:", count: 29) + "EF")
        #expect(presented.matches("ab:cd:" + String(repeating: "01:", count: 29) + "ef"))
        #expect(presented.matches("ABCD" + String(repeating: "01", count: 29) + "EF"))
        #expect(!presented.matches("ABCD" + String(repeating: "01", count: 29) + "EE"))
        #expect(!presented.matches(""))
        #expect(!presented.matches("ABCD" + String(repeating: "01", count: 29) + "EF; rm"))
    }
}
