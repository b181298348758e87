import FleetTrust
import Foundation
import JSONValue
import Posix

/// What a door that joined a fleet keeps, beside its store (as the console keeps its certificate):
/// its private key (0600, made on the door, never sent), the certificate the hub issued for it,
/// the fleet's authority it pinned, and `fleet.json` (the hub's address, the door's name, the
/// authority's fingerprint). `fleet.json` is written last: a door with it has joined whole.
/// While a join is unfinished, its key pair waits in `pendingKeyPath(code:)`.
public struct FleetFiles: Sendable, Equatable {
    public let directory: String

    public init(storeDatabase: String) {
        let folder = (storeDatabase as NSString).deletingLastPathComponent
        directory = folder.isEmpty ? "." : folder
    }

    public var keyPath: String { directory + "/fleet-door-key.pem" }
    public var certificatePath: String { directory + "/fleet-door-cert.pem" }
    public var authorityPath: String { directory + "/fleet-authority.pem" }
    public var membershipPath: String { directory + "/fleet.json" }
    /// The key pair a join with `code` made (0600), kept until that join ends whole or the hub
    /// refused it, so a door that never had the hub's answer asks again with the same key (the
    /// hub redeems a code again only for the key it was redeemed with). Named by the code's
    /// `JoinCode.tag`, never by the code.
    public func pendingKeyPath(code: String) throws(FleetJoinError) -> String {
        try pendingPath(code: code, suffix: "key.pem", holding: "key")
    }

    /// The hub's answer to a join with `code` (the door's name, its certificate, the authority's
    /// SHA-256), kept from the answer until the join ends whole or the hub refused the
    /// certificate: the door's first request with it may reach the hub, which then spends the
    /// code, and its answer be lost; the same join again finishes with what was kept.
    public func pendingAnswerPath(code: String) throws(FleetJoinError) -> String {
        try pendingPath(code: code, suffix: "answer.json", holding: "answer")
    }

    /// A file of an unfinished join with `code`, named by the code's tag, never by the code.
    private func pendingPath(code: String, suffix: String, holding what: String) throws(FleetJoinError) -> String {
        do { return directory + "/fleet-join-\(try JoinCode.tag(code))-\(suffix)" } catch {
            throw .files("the join's \(what) file cannot be named: \(error)")
        }
    }

    public var identity: HubIdentity { HubIdentity(certificatePath: certificatePath, keyPath: keyPath) }

    /// The fleet this door follows; nil when it joined none.
    public func membership() throws(FleetJoinError) -> FleetMembership? {
        let bytes: [UInt8]?
        do { bytes = try FileSystem.contents(of: membershipPath) } catch {
            throw .files("\(membershipPath) cannot be read: \(error)")
        }
        guard let bytes else { return nil }
        guard let json = try? JSONValue(parsing: String(decoding: bytes, as: UTF8.self)),
              let hub = json["hub"]?.stringValue, let address = try? HubAddress(parsing: hub),
              let door = json["door"]?.stringValue, let authority = json["authoritySHA256"]?.stringValue,
              let joined = json["joinedAt"]?.numberValue else {
            throw .files("\(membershipPath) is not a fleet membership fpmod wrote; restore it or remove the fleet files and join again")
        }
        return FleetMembership(hub: address, door: door, authoritySHA256: authority, joinedAt: joined)
    }
}

/// A door's membership of a fleet: which hub, under which name, pinned to which authority.
public struct FleetMembership: Sendable, Equatable {
    public var hub: HubAddress
    public var door: String
    public var authoritySHA256: String
    /// Seconds since 1970.
    public var joinedAt: Double

    var json: JSONValue {
        .object(["hub": .string(hub.description), "door": .string(door), "authoritySHA256": .string(authoritySHA256),
                 "joinedAt": .double(joinedAt)])
    }
}
