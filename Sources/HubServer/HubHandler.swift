import ConsoleHTTP
import Foundation
import HostMatching
import FleetTrust
import HubStore
import JSONValue
import TemplateStore

/// The hub's HTTPS API, which doors speak (mutual TLS: every route but joining needs a door's
/// certificate from the fleet's authority, not revoked):
///
/// - `GET /v1/authority`: the fleet's authority certificate, for a door about to join: it trusts it
///   only once its fingerprint matched the one `fpmod hub serve` printed (no secret in it).
/// - `POST /v1/join` `{"code": "…", "request": "<PKCS #10 PEM>"}`: a door redeems its one-time
///   code for a certificate under its name; the answer carries the certificate and the fleet's
///   authority, which the door pins. Until the door first uses that certificate (and while the
///   code is valid), the code redeemed again with a request for the same key answers the same
///   certificate: a door that lost the answer asks again; another key is refused.
/// - `GET /v1/changes?since=R&limit=N&wait=S`: the change log above revision R, in order, at
///   most N (default 500, at most 5,000), and the hub's latest revision. With `wait` (1 to 30
///   seconds) and nothing above R, the answer waits for the next change (a long poll: a
///   revocation reaches a waiting door as it commits).
/// - `POST /v1/events` `{"events": [{"sequence", "time", "event", "user", "detail", "previousHash",
///   "hash"}, …]}` (hashes in hex, at most 1,000 a request): the door's events, kept exactly once;
///   the answer counts the new and the repeated, and names the sequence numbers still missing.
/// - `GET /v1/template-key`: the fleet's template key (hex), for a door's certificate: what every
///   finger travels sealed under.
/// - `POST /v1/cards` `{"user", "label", "kind", "hash", "enabled", "validFrom", "validUntil"}`
///   (the number's keyed hash under the fleet's card key, hex): a card enrolled at the door for a
///   user of the hub; a change every door follows. 404 for an unknown user; 409 for a number
///   another card has, or a label the user has for another card.
/// - `POST /v1/cards/update` `{"user", "label", "hash", "enabled"?, "validity"?: {"from", "until"}}`:
///   a door's change to a card the hub has (switched off or on, new dates: only what it names),
///   applied only while the hub's card of that user and label has that number; `POST /v1/cards/remove` `{"user", "label", "hash"}`: a door's removal of one, likewise.
///   Both a change every door follows; 404 when the hub has no such card now.
/// - `POST /v1/fingers` `{"user", "label", "family", "size", "quality", "duress", "template"}`
///   (the template sealed under the fleet's key, base64): a finger enrolled at the door for a
///   user of the hub; it becomes a change every door follows. 404 for a user the hub does not have.
///
/// Answers are JSON; a refusal is `{"error": "…"}` with its status, never a hint of which part of
/// a join failed (a code and a name are not to be guessed one at a time).
public struct HubHandler: HTTPHandler {
    public let store: HubStore
    public let authority: FleetAuthority
    /// Hears of each change as it commits; nil: `wait` is not offered (answers at once).
    public let listener: HubChangeListener?
    /// What fingers travel sealed under; nil: this hub takes no fingers (404 on those routes).
    public let templateKey: FleetTemplateKey?
    public var log: @Sendable (String) -> Void

    public init(store: HubStore, authority: FleetAuthority, listener: HubChangeListener?, templateKey: FleetTemplateKey? = nil,
                log: @escaping @Sendable (String) -> Void) {
        self.store = store
        self.authority = authority
        self.listener = listener
        self.templateKey = templateKey
        self.log = log
    }

    public func respond(to request: HTTPRequest) -> HTTPResponse {
        do {
            switch (request.method, request.path) {
            case ("GET", "/v1/authority"): return Self.json(200, .object(["authority": .string(authority.certificatePEM)]))
            case ("POST", "/v1/join"): return try join(request)
            case ("GET", "/v1/changes"): return try changes(request)
            case ("POST", "/v1/events"): return try events(request)
            case ("GET", "/v1/template-key"): return try templateKey(request)
            case ("POST", "/v1/fingers"): return try finger(request)
            case ("POST", "/v1/cards"): return try card(request)
            case ("POST", "/v1/cards/update"): return try cardEdit(request, removing: false)
            case ("POST", "/v1/cards/remove"): return try cardEdit(request, removing: true)
            case (_, "/v1/authority"), (_, "/v1/join"), (_, "/v1/changes"), (_, "/v1/events"), (_, "/v1/template-key"), (_, "/v1/fingers"),
                 (_, "/v1/cards"), (_, "/v1/cards/update"), (_, "/v1/cards/remove"):
                return Self.error(405, "method not allowed")
            default: return Self.error(404, "no such route")
            }
        } catch let error as HubStoreError {
            switch error {
            // What the door sent contradicts what the hub holds: the door's to know, not a failure of the hub.
            case .brokenEventChain, .conflictingEvent, .invalid: return Self.error(409, "\(error)")
            case .revokedDoor: return Self.error(403, "this door is revoked")
            case .unknownUser: return Self.error(404, "\(error)")
            default: break
            }
            log("hub: \(request.method) \(request.path): \(error)")
            return Self.error(503, "the hub's database is unavailable")
        } catch {
            log("hub: \(request.method) \(request.path): \(error)")
            return Self.error(500, "the hub failed")
        }
    }

    private func join(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let body = try? JSONValue(parsing: request.body), let code = body["code"]?.stringValue,
              let csr = body["request"]?.stringValue, csr.utf8.count <= 8_192 else {
            return Self.error(400, "a join is {\"code\": …, \"request\": a certificate request in PEM}")
        }
        let normalized = code.uppercased()
        let keySHA256: String
        do { keySHA256 = try FleetAuthority.requestKeySHA256(requestPEM: csr) } catch {
            return Self.error(400, "the certificate request was refused: \(error)")
        }
        guard let redemption = try store.redemption(joinCode: normalized, keySHA256: keySHA256) else {
            return Self.error(403, "the join code is unknown, used or expired")
        }
        switch redemption {
        case let .again(door, certificatePEM):
            return joined(door, certificatePEM: certificatePEM, again: true)
        case .new(let door):
            let issued: IssuedCertificate
            do { issued = try authority.issueDoorCertificate(requestPEM: csr, doorName: door.name) } catch {
                return Self.error(400, "the certificate request was refused: \(error)")
            }
            // One code, one certificate: of two redemptions racing, the second finds it taken,
            // and is answered like a repeat when it came with the winner's key (the same door).
            guard try store.completeJoin(code: normalized, keySHA256: keySHA256, certificate: issued) else {
                guard case let .again(door, certificatePEM)? = try store.redemption(joinCode: normalized, keySHA256: keySHA256) else {
                    return Self.error(403, "the join code is unknown, used or expired")
                }
                return joined(door, certificatePEM: certificatePEM, again: true)
            }
            log("hub: door \(door.name) joined (certificate \(issued.serial))")
            return joined(door, certificatePEM: issued.certificatePEM, again: false)
        }
    }

    /// Notes a door's request with its certificate; its first spends its join code, which the
    /// log says (from then on a join that lost its answer cannot ask again: the door has finished).
    private func seen(_ door: HubDoor, revision: Int64?) throws {
        if try store.noteDoorSeen(id: door.id, revision: revision) {
            log("hub: door \(door.name) used its certificate: joined, its join code spent")
        }
    }

    private func joined(_ door: HubDoor, certificatePEM: String, again: Bool) -> HTTPResponse {
        // Its first answer lost (or a retry that crossed it): the same certificate, for the same key.
        if again { log("hub: door \(door.name) asked again with the key it joined with; its certificate was sent again") }
        return Self.json(200, .object(["door": .string(door.name), "certificate": .string(certificatePEM),
                                       "authority": .string(authority.certificatePEM)]))
    }

    private func changes(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let door = try verifiedDoor(request) else { return Self.error(401, "a door's certificate is needed") }
        if door.revoked { return Self.error(403, "this door is revoked") }
        guard let since = Int64(request.queryValue("since") ?? "0"), since >= 0 else { return Self.error(400, "since is a revision, 0 or more") }
        let limitText = request.queryValue("limit") ?? "500"
        guard let limit = Int(limitText), (1...5_000).contains(limit) else { return Self.error(400, "limit is 1 to 5000") }
        guard let wait = Int(request.queryValue("wait") ?? "0"), (0...30).contains(wait) else { return Self.error(400, "wait is 0 to 30 seconds") }
        // The door's reader, so the hub can say which doors use a finger and why others cannot.
        if let text = request.queryValue("reader") {
            guard let reader = Self.reader(text) else {
                return Self.error(400, "reader is host, none, or a module's FAMILY:TEMPLATE-SIZE (letters, digits, '-'; 1 to 65536 bytes)")
            }
            try store.noteDoorReader(id: door.id, family: reader.family, templateSize: reader.size)
        }
        if wait > 0, let listener, listener.latest <= since {
            _ = listener.wait(forRevisionAbove: since, until: .now + .seconds(wait))
            // Revoked while it waited: not one more page.
            if try verifiedDoor(request)?.revoked != false { return Self.error(403, "this door is revoked") }
        }
        let latest = try store.latestRevision()
        let page = try store.changes(since: since, limit: limit)
        try seen(door, revision: since)
        // Each change encoded once: its text both measures the page and makes the answer.
        var items: [String] = [], bytes = 0
        for change in page {
            // Another door's mode is that door's business: its revision only, so the log stays whole.
            let item: JSONValue = change.kind == .doorMode && change.key != door.name
                ? .object(["revision": .int(change.revision), "kind": .string(change.kind.rawValue), "key": .string(""), "state": .null])
                : .object(["revision": .int(change.revision), "kind": .string(change.kind.rawValue), "key": .string(change.key),
                           "state": change.state ?? .null])
            let text = item.encoded
            // A page of fingers (kilobytes each) ends before it could pass what a door reads in
            // one answer; the door asks again from where it ended. Never empty: one change always goes.
            bytes += text.utf8.count + 1
            if !items.isEmpty, bytes > Self.pageBytes { break }
            items.append(text)
        }
        let body = "{\"latest\":\(JSONValue.int(latest).encoded),\"changes\":[" + items.joined(separator: ",") + "]}\n"
        // A page of users or fingers is JSON that shrinks about tenfold: gzip for a door that takes it.
        var headers: [(name: String, value: String)] = [("Content-Type", "application/json"), ("Cache-Control", "no-store"), ("Vary", "Accept-Encoding")]
        let plain = Array(body.utf8)
        if plain.count >= GzipEncoding.smallestWorthIt, GzipEncoding.accepted(by: request.header("Accept-Encoding")),
           let compressed = GzipEncoding.compress(plain) {
            headers.append(("Content-Encoding", "gzip"))
            return HTTPResponse(status: 200, headers: headers, body: .bytes(compressed))
        }
        return HTTPResponse(status: 200, headers: headers, body: .bytes(plain))
    }

    private func events(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let door = try verifiedDoor(request) else { return Self.error(401, "a door's certificate is needed") }
        if door.revoked { return Self.error(403, "this door is revoked") }
        guard let body = try? JSONValue(parsing: request.body), let items = body["events"]?.arrayValue, items.count <= 1_000 else {
            return Self.error(400, "an upload is {\"events\": [at most 1000 events]}")
        }
        var events: [DoorEvent] = []
        for item in items {
            guard let sequence = item["sequence"]?.numberValue.flatMap({ Int64(exactly: $0) }), let time = item["time"]?.numberValue,
                  let event = item["event"]?.stringValue, let previous = item["previousHash"]?.stringValue.flatMap(Self.bytes(hex:)),
                  let hash = item["hash"]?.stringValue.flatMap(Self.bytes(hex:)) else {
                return Self.error(400, "an event has sequence, time, event, previousHash and hash (hex)")
            }
            events.append(DoorEvent(sequence: sequence, time: time, event: event, user: item["user"]?.stringValue,
                                    detail: item["detail"]?.stringValue, previousHash: previous, hash: hash))
        }
        let upload = try store.insertEvents(door: door.id, events)
        try seen(door, revision: nil)
        return Self.json(200, .object([
            "inserted": .int(Int64(upload.inserted)), "duplicates": .int(Int64(upload.duplicates)),
            "missing": .array(upload.gaps.map { .array([.int($0.lowerBound), .int($0.upperBound)]) }),
        ]))
    }

    private func templateKey(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let door = try verifiedDoor(request) else { return Self.error(401, "a door's certificate is needed") }
        if door.revoked { return Self.error(403, "this door is revoked") }
        guard let templateKey else { return Self.error(404, "this hub takes no fingers") }
        try seen(door, revision: nil)
        return Self.json(200, .object(["key": .string(templateKey.hex)]))
    }

    private func finger(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let door = try verifiedDoor(request) else { return Self.error(401, "a door's certificate is needed") }
        if door.revoked { return Self.error(403, "this door is revoked") }
        guard let templateKey else { return Self.error(404, "this hub takes no fingers") }
        guard request.body.count <= 200_000, let body = try? JSONValue(parsing: request.body), let finger = HubFinger(json: body) else {
            return Self.error(400, "a finger is {user, label, family, size, quality, duress, template (sealed, base64)}")
        }
        let (user, label, family, size) = (finger.user, finger.label, finger.family, finger.templateSize)
        // Sealed under another key, or for another finger: every door would fail to open it.
        guard let plain = templateKey.open(finger.sealedTemplate, user: user, label: label, family: family), plain.count == size else {
            return Self.error(409, "the template is not sealed under this fleet's key for that finger; nothing was changed")
        }
        // Every image-sensor door would refuse the batch holding it (and stop following).
        if family == HubFinger.hostFamily, HostTemplate(bytes: plain).format != HostTemplate.currentFormat {
            return Self.error(409, "a host finger is a template of this fpmod's host matcher; nothing was changed")
        }
        let revision = try store.putFinger(finger)
        try seen(door, revision: nil)
        log("hub: door \(door.name) enrolled \(user)'s \(label) (\(family)), revision \(revision)")
        return Self.json(200, .object(["revision": .int(revision)]))
    }

    private func card(_ request: HTTPRequest) throws -> HTTPResponse {
        guard let door = try verifiedDoor(request) else { return Self.error(401, "a door's certificate is needed") }
        if door.revoked { return Self.error(403, "this door is revoked") }
        // Without the fleet's key no door hashes a number alike: the card would open nothing.
        guard templateKey != nil else { return Self.error(404, "this hub takes no cards") }
        guard request.body.count <= 4_096, let body = try? JSONValue(parsing: request.body), let card = HubCard(json: body) else {
            return Self.error(400, "a card is {user, label, kind, hash (hex, under the fleet's card key), enabled, validFrom, validUntil}")
        }
        let revision = try store.putCard(card, replacing: false)
        try seen(door, revision: nil)
        log("hub: door \(door.name) enrolled \(card.user)'s card \(card.label) (\(card.kind.rawValue)), revision \(revision)")
        return Self.json(200, .object(["revision": .int(revision)]))
    }

    /// A door's change to, or removal of, a card the hub has: made only while the hub's card of
    /// that user and label is the same number, so a door that had not heard of the hub's newer
    /// card under that label changes nothing.
    private func cardEdit(_ request: HTTPRequest, removing: Bool) throws -> HTTPResponse {
        guard let door = try verifiedDoor(request) else { return Self.error(401, "a door's certificate is needed") }
        if door.revoked { return Self.error(403, "this door is revoked") }
        guard templateKey != nil else { return Self.error(404, "this hub takes no cards") }
        guard request.body.count <= 4_096, let body = try? JSONValue(parsing: request.body) else {
            return Self.error(400, removing ? "a removal is {user, label, hash (hex)}" : Self.cardChangeShape)
        }
        let revision: Int64?
        let user: String, label: String
        if removing {
            guard let name = body["user"]?.stringValue, let cardLabel = body["label"]?.stringValue,
                  let hash = body["hash"]?.stringValue.flatMap(HexText.bytes), hash.count == 32 else {
                return Self.error(400, "a removal is {user, label, hash (hex)}")
            }
            (user, label) = (name, cardLabel)
            revision = try store.deleteCard(user: user, label: label, numberHash: hash)
        } else {
            guard let change = HubCardChange(json: body) else { return Self.error(400, Self.cardChangeShape) }
            (user, label) = (change.user, change.label)
            revision = try store.updateCard(change)
        }
        try seen(door, revision: nil)
        guard let revision else { return Self.error(404, "the hub has no such card now: removed, or given another number, there") }
        log("hub: door \(door.name) \(removing ? "removed" : "changed") \(user)'s card \(label), revision \(revision)")
        return Self.json(200, .object(["revision": .int(revision)]))
    }

    static let cardChangeShape = "a card's change is {user, label, hash (hex), and enabled (true or false), validity ({from, until}: seconds or null), or both}"

    /// `reader` of `GET /v1/changes` read: "host", "none" (nil family), or "FAMILY:SIZE".
    static func reader(_ text: String) -> (family: String?, size: Int?)? {
        if text == "none" { return (nil, nil) }
        if text == HubFinger.hostFamily { return (text, nil) }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let size = Int(parts[1]), (1...65_536).contains(size), (1...32).contains(parts[0].utf8.count),
              parts[0].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else { return nil }
        return (String(parts[0]), size)
    }

    /// A hash as an event carries it: at most 64 bytes in hex.
    static func bytes(hex: String) -> [UInt8]? {
        hex.utf8.count <= 128 ? HexText.bytes(hex) : nil
    }

    /// The door whose certificate came with the request: verified by GnuTLS in the handshake,
    /// then here for this fleet and a door's purpose, and known to the hub by its SHA-256.
    private func verifiedDoor(_ request: HTTPRequest) throws -> HubDoor? {
        guard let pem = request.clientCertificatePEM, let peer = try? authority.verify(certificatePEM: pem, asDoor: true) else { return nil }
        return try store.door(certificateSHA256: peer.sha256Fingerprint)
    }

    /// The most a page of changes holds, in bytes of JSON: a quarter of what a door reads in one
    /// answer (`HubClient`'s 16 MiB), so a log of fingers is read in pages that always fit.
    static let pageBytes = 4 << 20

    static func json(_ status: Int, _ value: JSONValue) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", text: value.encoded + "\n", headers: [("Cache-Control", "no-store")])
    }

    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, .object(["error": .string(message)]))
    }
}
