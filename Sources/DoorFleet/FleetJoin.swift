import FleetTrust
import Foundation
import Glibc
import JSONValue
import Posix
import PrintableText

/// The authority a hub presented before the door trusts it: to be compared with the fingerprint
/// `fpmod hub serve` printed, by the person or with the one they gave.
public struct PresentedAuthority: Sendable, Equatable {
    public var certificatePEM: String
    public var sha256Fingerprint: String

    /// Whether `typed` (upper or lower case, with or without colons or spaces) is this fingerprint.
    public func matches(_ typed: String) -> Bool {
        func digits(_ text: String) -> String { text.uppercased().filter { $0.isHexDigit } }
        return !typed.isEmpty && digits(typed) == digits(sha256Fingerprint)
            && typed.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == " " }
    }
}

/// A door joining a fleet: intent checked → the hub's authority fetched and accepted → the key
/// pair made here (or the one kept from an unfinished join with this code) and the request sent
/// with the one-time code over TLS verified against that authority → the certificate confirmed
/// by a first request with it → `fleet.json` written last. Everything is checked before the
/// first byte is sent; a join that fails removes the fleet files it wrote, so the door is
/// joined whole or not at all, and keeps only the key pair the join was sent with (and the
/// hub's answer, once it had one), unless the hub refused them, so that the join run again
/// redeems the code the hub may have redeemed for it, or confirms the certificate the hub
/// answered (its first use spends the code at the hub, so that answer cannot be asked again).
public struct FleetJoin: Sendable {
    public let address: HubAddress
    public let code: String
    public let files: FleetFiles

    /// Every check that needs no network: the address, the code, this door not joined already,
    /// the store's folder writable.
    public init(hub: String, code typed: String, files: FleetFiles) throws(FleetJoinError) {
        address = try HubAddress(parsing: hub)
        guard let code = JoinCode.normalized(typed) else { throw .badCode }
        self.code = code
        self.files = files
        if let membership = try files.membership() {
            throw .joinedAlready(hub: membership.hub.description, door: membership.door)
        }
        // A new door's folder is made by the join (with its store): its parent must take it.
        let parent = (files.directory as NSString).deletingLastPathComponent
        guard FileSystem.isAccessible(files.directory, W_OK)
            || (!FileSystem.exists(files.directory) && FileSystem.isAccessible(parent.isEmpty ? "." : parent, W_OK)) else {
            throw .files("\(files.directory) is missing or this user may not write it; run as the store's owner (e.g. with sudo)")
        }
    }

    /// The fleet authority the hub presents (`GET /v1/authority`), fetched without trusting the
    /// hub: not yet believed, only shown.
    public func presentedAuthority() throws(FleetJoinError) -> PresentedAuthority {
        let answer = try request(trust: .unverified, identity: nil, "GET", "/v1/authority", body: nil)
        guard answer.status == 200 else { throw Self.refusal(answer) }
        guard let json = try? JSONValue(parsing: String(decoding: answer.body, as: UTF8.self)),
              let pem = json["authority"]?.stringValue,
              let fingerprint = try? FleetAuthority.fingerprint(ofPEM: pem) else {
            throw .unexpectedAnswer("no fleet authority certificate in the answer to GET /v1/authority")
        }
        return PresentedAuthority(certificatePEM: pem, sha256Fingerprint: fingerprint)
    }

    /// Joins, trusting `authority` from here on. `owner`: who the files belong to (the store's
    /// owner, so the service reads them when a root shell joined); nil leaves them this user's.
    ///
    /// The key pair is made once per code and kept (`FleetFiles.pendingKeyPath(code:)`, 0600)
    /// from before the request is sent until the join ends whole or the hub refused it: a join
    /// whose answer was lost (the network, a kill) is run again with the same key, and the hub,
    /// which redeemed the code for that key, answers the same certificate.
    public func join(pinning authority: PresentedAuthority, owner: (user: uid_t, group: gid_t)? = nil,
                     now: Date = Date()) throws(FleetJoinError) -> FleetMembership {
        let pendingPath = try files.pendingKeyPath(code: code)
        let keptKey: String?
        do { keptKey = try FileSystem.contents(of: pendingPath).map { String(decoding: $0, as: UTF8.self) } } catch {
            throw .files("\(pendingPath) cannot be read: \(error)")
        }
        let request: DoorRequest
        do { request = try DoorRequest.make(privateKeyPEM: keptKey) } catch {
            throw .files(keptKey == nil ? "the door's key pair could not be made: \(error)"
                         : "\(pendingPath) (the key an earlier join with this code made) does not read: \(error)")
        }
        let answerPath = try files.pendingAnswerPath(code: code)
        // An answer kept from a join with this code and key whose end was lost, for this authority.
        let keptAnswer = keptKey == nil ? nil : Self.keptAnswer(at: answerPath, authority: authority)
        var written: [String] = []
        // Whether the hub refused the join or the certificate: no retry with this code and key
        // changes that, so the key and the answer go; any other failure may follow a redemption
        // (or a first use) whose answer was lost, so they stay.
        var refused = false
        let membership: FleetMembership
        do throws(FleetJoinError) {
            if keptKey == nil {
                var pending: [String] = []
                try write(request.privateKeyPEM, to: pendingPath, mode: 0o600, owner: owner, written: &pending)
            }
            try write(authority.certificatePEM, to: files.authorityPath, mode: 0o644, owner: owner, written: &written)
            try write(request.privateKeyPEM, to: files.keyPath, mode: 0o600, owner: owner, written: &written)
            let door: String, certificate: String
            if let keptAnswer {
                (door, certificate) = keptAnswer
            } else {
                let body = JSONValue.object(["code": .string(code), "request": .string(request.requestPEM)]).encoded
                let answer = try self.request(trust: .authority(path: files.authorityPath), identity: nil,
                                              "POST", "/v1/join", body: Array(body.utf8))
                guard answer.status == 200 else {
                    // 5xx: the hub failed, perhaps after it redeemed the code; anything else it refused.
                    refused = answer.status < 500
                    throw Self.refusal(answer)
                }
                guard let json = try? JSONValue(parsing: String(decoding: answer.body, as: UTF8.self)),
                      let named = json["door"]?.stringValue, let issued = json["certificate"]?.stringValue,
                      json["authority"]?.stringValue.map({ (try? FleetAuthority.fingerprint(ofPEM: $0)) == authority.sha256Fingerprint }) == true else {
                    throw .unexpectedAnswer("the join's answer carries no certificate, or another authority")
                }
                (door, certificate) = (named, issued)
                // Kept before the certificate's first use, which spends the code at the hub.
                let kept = JSONValue.object(["door": .string(door), "certificate": .string(certificate),
                                             "authoritySHA256": .string(authority.sha256Fingerprint)])
                var pending: [String] = []
                try write(kept.encoded + "\n", to: answerPath, mode: 0o600, owner: owner, written: &pending)
            }
            try write(certificate, to: files.certificatePath, mode: 0o644, owner: owner, written: &written)
            // The certificate proves itself before the door counts as joined: the hub takes it.
            let confirmed = try self.request(trust: .authority(path: files.authorityPath), identity: files.identity,
                                             "GET", "/v1/changes?since=0&limit=1", body: nil)
            guard confirmed.status == 200 else {
                // 401/403: the hub will not take this certificate (revoked meanwhile); anything
                // else (5xx: it failed) leaves the join to be run again.
                refused = confirmed.status == 401 || confirmed.status == 403
                throw .unexpectedAnswer("the hub refused the certificate it issued (HTTP \(confirmed.status))")
            }
            membership = FleetMembership(hub: address, door: door, authoritySHA256: authority.sha256Fingerprint,
                                         joinedAt: now.timeIntervalSince1970)
            try write(membership.json.prettyEncoded + "\n", to: files.membershipPath, mode: 0o644, owner: owner, written: &written)
        } catch {
            for path in written { unlink(path) }
            if refused {
                unlink(pendingPath)
                unlink(answerPath)
            }
            throw error
        }
        // Joined whole: the key is fleet-door-key.pem now.
        unlink(pendingPath)
        unlink(answerPath)
        return membership
    }

    /// The door's name and certificate a join with this code was answered before it was cut off,
    /// when they were answered under `authority`; nil when there is no such answer (or it does not read).
    static func keptAnswer(at path: String, authority: PresentedAuthority) -> (door: String, certificate: String)? {
        guard let bytes = try? FileSystem.contents(of: path),
              let json = try? JSONValue(parsing: String(decoding: bytes, as: UTF8.self)),
              let door = json["door"]?.stringValue, let certificate = json["certificate"]?.stringValue,
              json["authoritySHA256"]?.stringValue == authority.sha256Fingerprint else { return nil }
        return (door, certificate)
    }

    private func request(trust: HubTrust, identity: HubIdentity?, _ method: String, _ path: String,
                         body: [UInt8]?) throws(FleetJoinError) -> HubResponse {
        do {
            let client = try HubClient(address: address, trust: trust, identity: identity)
            return try client.send(method, path, json: body, timeout: .seconds(30), maxBytes: 1 << 20)
        } catch {
            throw .unreachable(error.description)
        }
    }

    private func write(_ text: String, to path: String, mode: mode_t, owner: (user: uid_t, group: gid_t)?,
                       written: inout [String]) throws(FleetJoinError) {
        do {
            try AtomicFile.replace(path, with: Array(text.utf8), mode: mode)
            written.append(path)
            if let owner { try FileSystem.changeOwner(path, user: owner.user, group: owner.group) }
        } catch {
            throw .files("\(path) could not be written: \(error)")
        }
    }

    static func refusal(_ answer: HubResponse) -> FleetJoinError {
        .refused(status: answer.status, message: answer.refusalMessage)
    }
}
