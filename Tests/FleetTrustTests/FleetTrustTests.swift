import Foundation
import Glibc
import Testing
import TestSupport
@testable import FleetTrust

/// The fleet's certificates, checked by a party nobody here wrote: the `openssl` command
/// (tools/install-deps.sh installs it) reads and verifies what GnuTLS made.
@Suite struct FleetTrustTests {
    static func openssl(_ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return (-1, "cannot run openssl") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func write(_ text: String, _ name: String, in folder: ScratchFolder) throws -> String {
        let path = folder.file(name)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func opensslVerifiesTheDoorsAndTheHubsCertificatesAgainstTheFleetsAuthority() throws {
        let folder = ScratchFolder(prefix: "fpmod-trust")
        defer { folder.remove() }
        let authority = try FleetAuthority.make(name: "fpmod fleet test")
        let ca = try Self.write(authority.certificatePEM, "ca.pem", in: folder)
        let text = Self.openssl(["x509", "-in", ca, "-noout", "-text"])
        #expect(text.output.contains("CA:TRUE, pathlen:0"), "\(text.output)")
        #expect(text.output.contains("Certificate Sign"))

        // The door's request holds its own signature, as openssl checks it.
        let door = try DoorRequest.make()
        let request = try Self.write(door.requestPEM, "door.csr", in: folder)
        let checked = Self.openssl(["req", "-in", request, "-verify", "-noout"])
        #expect(checked.status == 0 && checked.output.contains("OK"), "\(checked.output)")

        let issued = try authority.issueDoorCertificate(requestPEM: door.requestPEM, doorName: "back-door")
        let certificate = try Self.write(issued.certificatePEM, "door.pem", in: folder)
        let asClient = Self.openssl(["verify", "-CAfile", ca, "-purpose", "sslclient", certificate])
        #expect(asClient.status == 0, "\(asClient.output)")
        let asServer = Self.openssl(["verify", "-CAfile", ca, "-purpose", "sslserver", certificate])
        #expect(asServer.status != 0, "a door's certificate passed as a server's: \(asServer.output)")
        // The certificate carries the door's key (the one the door kept), under the hub's name for it.
        let key = try Self.write(door.privateKeyPEM, "door.key", in: folder)
        let fromKey = Self.openssl(["pkey", "-in", key, "-pubout"]).output
        let fromCertificate = Self.openssl(["x509", "-in", certificate, "-noout", "-pubkey"]).output
        #expect(!fromKey.isEmpty && fromKey == fromCertificate)
        let subject = Self.openssl(["x509", "-in", certificate, "-noout", "-subject", "-serial", "-fingerprint", "-sha256"]).output
        #expect(subject.contains("CN = back-door") || subject.contains("CN=back-door"), "\(subject)")
        #expect(subject.contains("serial=" + issued.serial), "\(subject) vs \(issued.serial)")
        #expect(subject.uppercased().contains(issued.sha256Fingerprint))

        let hub = try authority.issueHubCertificate(hostNames: ["hub.example", "localhost"], ipAddresses: ["127.0.0.1", "::1"])
        let hubPath = try Self.write(hub.certificate.certificatePEM, "hub.pem", in: folder)
        let served = Self.openssl(["verify", "-CAfile", ca, "-purpose", "sslserver", "-verify_hostname", "hub.example", hubPath])
        #expect(served.status == 0, "\(served.output)")
        let byAddress = Self.openssl(["verify", "-CAfile", ca, "-purpose", "sslserver", "-verify_ip", "127.0.0.1", hubPath])
        #expect(byAddress.status == 0, "\(byAddress.output)")
    }

    @Test func aDoorsCertificateVerifiesAsADoorAndNothingElseDoes() throws {
        let authority = try FleetAuthority.make(name: "fleet")
        let door = try DoorRequest.make()
        let issued = try authority.issueDoorCertificate(requestPEM: door.requestPEM, doorName: "garage")
        #expect(try authority.verify(certificatePEM: issued.certificatePEM, asDoor: true)
                == VerifiedPeer(commonName: "garage", serial: issued.serial, sha256Fingerprint: issued.sha256Fingerprint))
        // A door's certificate is no hub's; a hub's is no door's.
        #expect(throws: FleetTrustError.refused("the certificate is not a hub's")) {
            try FleetAuthority.verify(certificatePEM: issued.certificatePEM, authorityPEM: authority.certificatePEM, asDoor: false)
        }
        let hub = try authority.issueHubCertificate(hostNames: ["localhost"], ipAddresses: [])
        #expect(try FleetAuthority.verify(certificatePEM: hub.certificate.certificatePEM, authorityPEM: authority.certificatePEM,
                                          asDoor: false).commonName == "localhost")
        #expect(throws: FleetTrustError.refused("the certificate is not a door's")) {
            try authority.verify(certificatePEM: hub.certificate.certificatePEM, asDoor: true)
        }

        // Another fleet's authority issued it: refused, and said why.
        let stranger = try FleetAuthority.make(name: "another fleet")
        let foreign = try stranger.issueDoorCertificate(requestPEM: door.requestPEM, doorName: "garage")
        do {
            _ = try authority.verify(certificatePEM: foreign.certificatePEM, asDoor: true)
            Issue.record("another fleet's door was taken")
        } catch {
            #expect(error.description.contains("not one this fleet issued"), "\(error)")
        }
        #expect(throws: FleetTrustError.self) { try authority.verify(certificatePEM: "not a certificate", asDoor: true) }

        // Out of its validity: issued 900 days ago (the door's last 825).
        let old = try authority.issueDoorCertificate(requestPEM: door.requestPEM, doorName: "garage", now: time(nil) - 900 * 86_400)
        #expect(throws: FleetTrustError.self) { try authority.verify(certificatePEM: old.certificatePEM, asDoor: true) }
        // Two issues for one request are two certificates (each revocable alone).
        let again = try authority.issueDoorCertificate(requestPEM: door.requestPEM, doorName: "garage")
        #expect(again.serial != issued.serial)
    }

    @Test func aRequestNotSignedByItsKeyAndAMismatchedAuthorityAreRefused() throws {
        let authority = try FleetAuthority.make(name: "fleet")
        let door = try DoorRequest.make()
        // One character of the signature changed (the base64 body's last line but the end marker).
        var lines = door.requestPEM.split(separator: "\n").map(String.init)
        let last = lines.count - 2
        var chars = Array(lines[last])
        chars[2] = chars[2] == "A" ? "B" : "A"
        lines[last] = String(chars)
        let tampered = lines.joined(separator: "\n") + "\n"
        #expect(throws: FleetTrustError.self) { try authority.issueDoorCertificate(requestPEM: tampered, doorName: "x") }
        #expect(throws: FleetTrustError.self) { try authority.issueDoorCertificate(requestPEM: "garbage", doorName: "x") }
        // Nor is a key told by a request that its key did not sign.
        #expect(throws: FleetTrustError.self) { try FleetAuthority.requestKeySHA256(requestPEM: tampered) }

        // The authority as stored: its own pair is taken; another key, or an end certificate, is not.
        _ = try FleetAuthority(certificatePEM: authority.certificatePEM, privateKeyPEM: authority.privateKeyPEM)
        #expect(throws: FleetTrustError.refused("the fleet authority's key is not the one its certificate names")) {
            try FleetAuthority(certificatePEM: authority.certificatePEM, privateKeyPEM: door.privateKeyPEM)
        }
        let issued = try authority.issueDoorCertificate(requestPEM: door.requestPEM, doorName: "door")
        #expect(throws: FleetTrustError.refused("the fleet authority's certificate is not a certificate authority's")) {
            try FleetAuthority(certificatePEM: issued.certificatePEM, privateKeyPEM: door.privateKeyPEM)
        }
    }

    /// A door asking again (its join's answer lost) makes a new request with the key it kept:
    /// the hub knows the key by its SHA-256, the same for every request of that key only.
    @Test func aKeptKeyMakesRequestsTheHubTellsAsTheSameKey() throws {
        let first = try DoorRequest.make()
        let again = try DoorRequest.make(privateKeyPEM: first.privateKeyPEM)
        let other = try DoorRequest.make()
        let firstKey = try FleetAuthority.requestKeySHA256(requestPEM: first.requestPEM)
        let againKey = try FleetAuthority.requestKeySHA256(requestPEM: again.requestPEM)
        let otherKey = try FleetAuthority.requestKeySHA256(requestPEM: other.requestPEM)
        #expect(again.privateKeyPEM == first.privateKeyPEM && again.requestPEM != first.requestPEM)
        #expect(firstKey == againKey && firstKey != otherKey)
        #expect(firstKey.count == 64 && firstKey.allSatisfy { $0.isHexDigit && !$0.isLowercase })
        #expect(throws: FleetTrustError.self) { try DoorRequest.make(privateKeyPEM: "not a key") }
    }
}
