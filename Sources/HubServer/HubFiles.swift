import FleetTrust
import Foundation
import Posix
import TemplateStore

/// The hub's own files in its directory: the fleet's authority (`authority.pem`, and its key
/// `authority.key`, mode 0600 — whoever holds it can make a door) and the hub's server
/// certificate for the names doors reach it by (`hub.pem`, `hub.key`, 0600). Made on the first
/// start; the authority is never replaced (every door pins it), the server certificate is made
/// again when the names change.
public struct HubFiles: Sendable {
    public let directory: String
    public let authority: FleetAuthority
    public let serverCertificatePEM: String
    public let serverKeyPEM: String
    /// "AB:CD:…" of the authority: what a person compares when a door joins.
    public let authorityFingerprint: String
    /// What fingers travel and rest sealed under (`template.key`, 0600, made on the first start
    /// and never replaced: every finger at the hub and on the doors is sealed under it).
    public let templateKey: FleetTemplateKey

    public static func load(directory: String, hostNames: [String], ipAddresses: [String]) throws -> HubFiles {
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } else if !isDirectory.boolValue {
            throw HubFilesError("\(directory) is not a directory")
        }
        let authorityPath = directory + "/authority.pem", authorityKeyPath = directory + "/authority.key"
        let authority: FleetAuthority
        if FileManager.default.fileExists(atPath: authorityPath) || FileManager.default.fileExists(atPath: authorityKeyPath) {
            authority = try FleetAuthority(certificatePEM: try read(authorityPath), privateKeyPEM: try readPrivate(authorityKeyPath))
        } else {
            authority = try FleetAuthority.make(name: "fpmod fleet " + (hostNames.first ?? ipAddresses.first ?? "hub"))
            // The key first: an authority certificate without its key would refuse every start.
            try AtomicFile.replace(authorityKeyPath, with: Array(authority.privateKeyPEM.utf8), mode: 0o600)
            try AtomicFile.replace(authorityPath, with: Array(authority.certificatePEM.utf8), mode: 0o644)
        }
        let namesPath = directory + "/hub.names", serverPath = directory + "/hub.pem", serverKeyPath = directory + "/hub.key"
        let names = (hostNames + ipAddresses).joined(separator: "\n") + "\n"
        var serverPEM = (try? read(serverPath)) ?? ""
        var serverKey = (try? readPrivate(serverKeyPath)) ?? ""
        let sameNames = (try? read(namesPath)) == names
        let stillValid = (try? FleetAuthority.verify(certificatePEM: serverPEM, authorityPEM: authority.certificatePEM, asDoor: false)) != nil
        if !sameNames || !stillValid || serverKey.isEmpty {
            let issued = try authority.issueHubCertificate(hostNames: hostNames, ipAddresses: ipAddresses)
            serverPEM = issued.certificate.certificatePEM
            serverKey = issued.privateKeyPEM
            try AtomicFile.replace(serverKeyPath, with: Array(serverKey.utf8), mode: 0o600)
            try AtomicFile.replace(serverPath, with: Array(serverPEM.utf8), mode: 0o644)
            try AtomicFile.replace(namesPath, with: Array(names.utf8), mode: 0o644)
        }
        let templateKeyPath = directory + "/template.key"
        let templateKey: FleetTemplateKey
        if FileManager.default.fileExists(atPath: templateKeyPath) {
            let text = try readPrivate(templateKeyPath).trimmingCharacters(in: .whitespacesAndNewlines)
            guard let key = FleetTemplateKey(hex: text) else { throw HubFilesError("\(templateKeyPath) is not a template key fpmod made; restore it from a backup") }
            templateKey = key
        } else {
            templateKey = FleetTemplateKey.generate()
            try AtomicFile.replace(templateKeyPath, with: Array((templateKey.hex + "\n").utf8), mode: 0o600)
        }
        return HubFiles(directory: directory, authority: authority, serverCertificatePEM: serverPEM, serverKeyPEM: serverKey,
                        authorityFingerprint: try FleetAuthority.fingerprint(ofPEM: authority.certificatePEM), templateKey: templateKey)
    }

    /// The fleet's template key in `directory`, read without making anything: what a command
    /// beside the server (`fpmod hub add-card`) hashes with. The server makes it on its first start.
    public static func templateKey(directory: String) throws -> FleetTemplateKey {
        let path = directory + "/template.key"
        guard FileManager.default.fileExists(atPath: path) else {
            throw HubFilesError("\(path) does not exist: fpmod hub serve --dir \(directory) makes the fleet's keys at its first start")
        }
        guard let key = FleetTemplateKey(hex: try readPrivate(path).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw HubFilesError("\(path) is not a template key fpmod made; restore it from a backup")
        }
        return key
    }

    private static func read(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else { throw HubFilesError("cannot read \(path)") }
        return String(decoding: data, as: UTF8.self)
    }

    /// A private file: refused when others may read it (a key copied with the wrong mode).
    private static func readPrivate(_ path: String) throws -> String {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        if let mode = attributes[.posixPermissions] as? Int, mode & 0o077 != 0 {
            throw HubFilesError("\(path) may be read by others (mode \(String(mode, radix: 8))); chmod 600 it")
        }
        return try read(path)
    }
}

public struct HubFilesError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
