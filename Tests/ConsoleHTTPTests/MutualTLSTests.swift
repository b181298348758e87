import ConsoleHTTP
import FleetTrust
import Foundation
import Testing
import TestSupport

/// The server with a client authority (the fleet hub's doors), against curl presenting a
/// certificate, none, or another fleet's: the request carries a certificate only when GnuTLS
/// verified it against the authority.
@Suite struct MutualTLSTests {
    /// Answers who the client certificate says it is, as the hub will.
    struct WhoIsIt: HTTPHandler {
        let authority: FleetAuthority
        func respond(to request: HTTPRequest) -> HTTPResponse {
            guard let pem = request.clientCertificatePEM else { return HTTPResponse(status: 401, contentType: "text/plain", text: "no door\n") }
            do {
                let peer = try authority.verify(certificatePEM: pem, asDoor: true)
                return HTTPResponse(status: 200, contentType: "text/plain", text: "door \(peer.commonName) \(peer.serial)\n")
            } catch {
                return HTTPResponse(status: 403, contentType: "text/plain", text: "\(error)\n")
            }
        }
    }

    /// A server with the hub's certificate from `authority`, asking clients for a door's
    /// certificate from it or not.
    static func hub(_ authority: FleetAuthority, askingForDoors: Bool) throws
        -> (HTTPServer, (certificate: IssuedCertificate, privateKeyPEM: String)) {
        let hub = try authority.issueHubCertificate(hostNames: ["localhost"], ipAddresses: ["127.0.0.1"])
        var configuration = HTTPServerConfiguration()
        configuration.tls = (hub.certificate.certificatePEM, hub.privateKeyPEM)
        if askingForDoors { configuration.clientAuthorityPEM = authority.certificatePEM }
        return (try HTTPServer(configuration: configuration, handler: WhoIsIt(authority: authority)), hub)
    }

    @Test func aDoorsCertificateReachesTheHandlerAndNoneOrAStrangersDoesNot() throws {
        let scratch = ScratchFolder(prefix: "fpmod-mtls")
        defer { scratch.remove() }
        let authority = try FleetAuthority.make(name: "fleet")
        let (server, hub) = try Self.hub(authority, askingForDoors: true)
        defer { server.stop() }
        func file(_ name: String, _ text: String) throws -> String {
            try text.write(toFile: scratch.file(name), atomically: true, encoding: .utf8)
            return scratch.file(name)
        }
        let ca = try file("ca.pem", authority.certificatePEM)
        let url = "https://127.0.0.1:\(server.port)/v1/whoami"

        let door = try DoorRequest.make()
        let issued = try authority.issueDoorCertificate(requestPEM: door.requestPEM, doorName: "garage")
        let certificate = try file("door.pem", issued.certificatePEM)
        let key = try file("door.key", door.privateKeyPEM)
        let known = ConsoleHTTPTests.run("/usr/bin/curl", ["--silent", "--show-error", "--cacert", ca, "--cert", certificate, "--key", key, url])
        #expect(known.status == 0 && known.output == "door garage \(issued.serial)\n", "\(known.output)")

        // No certificate: the handshake goes through (a joining door has none yet), the request has none.
        let none = ConsoleHTTPTests.run("/usr/bin/curl", ["--silent", "--show-error", "--cacert", ca, url])
        #expect(none.status == 0 && none.output == "no door\n", "\(none.output)")

        // Another fleet's door: not verified, so not carried (or the handshake refused): never taken as a door.
        let stranger = try FleetAuthority.make(name: "another fleet")
        let foreign = try stranger.issueDoorCertificate(requestPEM: door.requestPEM, doorName: "garage")
        let foreignPath = try file("foreign.pem", foreign.certificatePEM)
        let refused = ConsoleHTTPTests.run("/usr/bin/curl", ["--silent", "--cacert", ca, "--cert", foreignPath, "--key", key, url])
        #expect(!refused.output.hasPrefix("door "), "\(refused.output)")

        // The hub's own server certificate presented as a client's: verified by GnuTLS (same
        // authority), refused by purpose.
        let hubCertificate = try file("hub.pem", hub.certificate.certificatePEM)
        let hubKey = try file("hub.key", hub.privateKeyPEM)
        let wrongPurpose = ConsoleHTTPTests.run("/usr/bin/curl", ["--silent", "--cacert", ca, "--cert", hubCertificate, "--key", hubKey, url])
        #expect(!wrongPurpose.output.hasPrefix("door "), "\(wrongPurpose.output)")

        // The client's view: the hub is checked against the fleet's authority alone.
        let otherCA = try file("other-ca.pem", stranger.certificatePEM)
        let wrongHub = ConsoleHTTPTests.run("/usr/bin/curl", ["--silent", "--cacert", otherCA, "--cert", certificate, "--key", key, url])
        #expect(wrongHub.status != 0)
    }

    /// Without a client authority, a client certificate is never carried (the console).
    @Test func withoutAClientAuthorityNoCertificateIsCarried() throws {
        let scratch = ScratchFolder(prefix: "fpmod-mtls")
        defer { scratch.remove() }
        let authority = try FleetAuthority.make(name: "fleet")
        let (server, _) = try Self.hub(authority, askingForDoors: false)
        defer { server.stop() }
        try authority.certificatePEM.write(toFile: scratch.file("ca.pem"), atomically: true, encoding: .utf8)
        let door = try DoorRequest.make()
        let issued = try authority.issueDoorCertificate(requestPEM: door.requestPEM, doorName: "garage")
        try issued.certificatePEM.write(toFile: scratch.file("door.pem"), atomically: true, encoding: .utf8)
        try door.privateKeyPEM.write(toFile: scratch.file("door.key"), atomically: true, encoding: .utf8)
        let reply = ConsoleHTTPTests.run("/usr/bin/curl", ["--silent", "--cacert", scratch.file("ca.pem"), "--cert", scratch.file("door.pem"),
                                                           "--key", scratch.file("door.key"), "https://127.0.0.1:\(server.port)/"])
        #expect(reply.status == 0 && reply.output == "no door\n", "\(reply.output)")
    }
}
