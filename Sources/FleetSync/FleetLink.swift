import DoorFleet
import Foundation
import HubReplica
import HubStore
import JSONValue
import TemplateStore

/// The reader of a door, as far as the fleet's fingers go.
public enum DoorReader: Sendable, Equatable {
    /// An image sensor matched on the host: takes the fleet's host templates, and sends the
    /// fingers enrolled here for the hub's users.
    case imageSensor(capacity: Int)
    /// A UART module: takes the fleet's templates of its family and size (as the store last
    /// recorded them, `TemplateStore.recordedModuleLibrary`), written into its flash by the
    /// reader between touches, and sends the fingers enrolled here. Before its module was first
    /// opened nothing is taken; the whole log is read again once it is known.
    case module
    /// Not known (`fpmod fleet sync` without a reader): no finger is taken or sent.
    case unknown
}

/// What one sync with the hub did: the pages applied, as one tally, and the events uploaded.
public struct FleetSyncReport: Sendable, Equatable {
    public var applied: ReplicaResult
    /// Audit records the hub took now (new or already kept), and the door's own sequence
    /// numbers the hub says it still misses (records from before the chain began).
    public var eventsSent = 0
    public var eventsMissing: [ClosedRange<Int64>] = []
    /// Fingers enrolled here that the hub took now, and ones it refused for good (their user is
    /// no longer the hub's): neither is sent again.
    public var fingersSent = 0
    public var fingersRefused: [String] = []
    /// Cards enrolled here for the hub's users that the hub took now, and ones it refused for
    /// good ("alice's badge: that card is bob's …"; kept here, not sent again).
    public var cardsSent = 0
    public var cardsRefused: [String] = []
    /// Changes made here to cards the hub has (switched off or on, new dates, removed) that the
    /// hub made for every door now, and ones it had no such card for any more ("alice's badge:
    /// …"; the hub's own change of it comes down at the next pull).
    public var cardChangesSent = 0
    public var cardChangesRefused: [String] = []

    public init(at revision: Int64) {
        applied = ReplicaResult(from: revision, to: revision)
    }
}

/// A joined door's link to its hub: the changes above its store's revision pulled and applied
/// page by page (each page whole or not at all, `ReplicaApply`), and its audit records uploaded
/// after the last the hub confirmed. Every request goes over mutual TLS with the door's own
/// certificate, to a hub the pinned authority vouches for.
public final class FleetLink {
    public let membership: FleetMembership
    private let client: HubClient
    private let store: TemplateStore
    private let reader: DoorReader

    /// The hub's answers' bytes so far.
    public var bytesReceived: Int { client.bytesReceived }

    /// Changes a page asks for, and events an upload carries (the hub's own limits).
    static let pageSize = 5_000
    static let uploadSize = 1_000

    public init(files: FleetFiles, store: TemplateStore, reader: DoorReader = .unknown,
                shouldStop: (@Sendable () -> Bool)? = nil) throws(FleetSyncError) {
        self.reader = reader
        let membership: FleetMembership?
        do { membership = try files.membership() } catch { throw .notJoined(error.description) }
        guard let membership else {
            throw .notJoined("This door joined no fleet (no \(files.membershipPath)); join one with fpmod join URL CODE.")
        }
        self.membership = membership
        self.store = store
        do {
            client = try HubClient(address: membership.hub, trust: .authority(path: files.authorityPath), identity: files.identity)
        } catch {
            throw .unreachable(error.description)
        }
        client.shouldStop = shouldStop
    }

    /// Pulls and applies until the store is at the hub's latest revision. `wait` (0–30 s): when
    /// nothing is new, the hub holds the first request until something is (a long poll).
    /// `fromStart`: the whole log again (`fpmod fleet sync --from-start`).
    public func pull(wait: Int = 0, fromStart: Bool = false) throws(FleetSyncError) -> FleetSyncReport {
        // The fleet's key before the first page, whatever the reader: the hub's cards are hashed
        // under a key derived from it, and a card the door cannot hash alike never matches.
        _ = try templateKey()
        let replicaReader = try replicaReader()
        // Fingers of a family this door did not take before (its module first known, or another
        // module fitted) are in the log's past: the whole log once, each change its thing's whole state.
        let newFamily = try takesNewFamily(replicaReader)
        let fromStart = fromStart || newFamily
        var start: Int64 = 0
        if !fromStart {
            do { start = try store.hubRevision() } catch { throw .store("\(error)") }
        }
        var report = FleetSyncReport(at: start)
        var firstPage = fromStart
        var waitNow = max(0, min(wait, 30))
        while true {
            let answer = try send("GET", "/v1/changes?since=\(report.applied.to)&limit=\(Self.pageSize)&wait=\(waitNow)&reader=\(Self.reader(replicaReader))",
                                  timeout: .seconds(waitNow + 30))
            let page = try ChangePage(json: answer)
            waitNow = 0
            guard !page.changes.isEmpty else { return try caughtUp(report, taking: replicaReader) }
            let applied: ReplicaResult
            do {
                applied = try ReplicaApply.apply(page.changes, to: store, reader: replicaReader, door: membership.door, fromStart: firstPage)
            } catch { throw .replica(error) }
            firstPage = false
            report.applied.add(applied)
            if applied.to >= page.latest { return try caughtUp(report, taking: replicaReader) }
        }
    }

    /// The store at the hub's latest revision with `reader`'s family taken all along: kept, so
    /// the next pull starts from the store's revision (a pull cut before this reads the log again).
    private func caughtUp(_ report: FleetSyncReport, taking reader: ReplicaReader?) throws(FleetSyncError) -> FleetSyncReport {
        let family = reader?.family ?? ""
        do {
            if try store.value(forKey: Self.familyTakenKey) != family { try store.setValue(family, forKey: Self.familyTakenKey) }
        } catch { throw .store("\(error)") }
        return report
    }

    /// Uploads the audit records the hub has not confirmed, a thousand at a time.
    public func uploadEvents(into report: inout FleetSyncReport) throws(FleetSyncError) {
        while true {
            let records: [ChainedAuditRecord]
            do { records = try store.chainedAuditRecords(after: try store.hubEventsSent(), limit: Self.uploadSize) } catch {
                throw .store("\(error)")
            }
            guard let last = records.last else { return }
            let events: [JSONValue] = records.map { record in
                .object(["sequence": .int(record.id), "time": .double(record.time), "event": .string(record.event),
                         "user": JSONValue(record.user), "detail": JSONValue(record.detail),
                         "previousHash": .string(record.previousHashHex), "hash": .string(record.hashHex)])
            }
            let answer = try send("POST", "/v1/events", body: Array(JSONValue.object(["events": .array(events)]).encoded.utf8))
            guard let json = try? JSONValue(parsing: String(decoding: answer, as: UTF8.self)),
                  let inserted = json["inserted"]?.intValue, let duplicates = json["duplicates"]?.intValue,
                  let missing = json["missing"]?.arrayValue else {
                throw .unexpectedAnswer("an upload's answer counts what was inserted and repeated, and names what is missing")
            }
            report.eventsSent += inserted + duplicates
            report.eventsMissing = missing.compactMap { (range: JSONValue) -> ClosedRange<Int64>? in
                guard let bounds = range.arrayValue, bounds.count == 2, let low = bounds[0].intValue, let high = bounds[1].intValue,
                      low <= high else { return nil }
                return Int64(low)...Int64(high)
            }
            do { try store.setHubEventsSent(last.id) } catch { throw .store("\(error)") }
            if records.count < Self.uploadSize { return }
        }
    }

    /// Pull, then upload fingers, cards and events: one whole sync, as `fpmod fleet sync` runs it.
    public func sync(wait: Int = 0, fromStart: Bool = false) throws(FleetSyncError) -> FleetSyncReport {
        var report = try pull(wait: wait, fromStart: fromStart)
        try uploadFingers(into: &report)
        // Changes first: a card deleted here and another given its label before this sync must
        // leave the hub before the new one arrives there, or the hub refuses the label as taken.
        try uploadCardChanges(into: &report)
        try uploadCards(into: &report)
        try uploadEvents(into: &report)
        return report
    }

    /// The reader as the hub is told it (`reader` of `GET /v1/changes`): which fingers this door takes.
    static func reader(_ reader: ReplicaReader?) -> String {
        guard let reader else { return "none" }
        return reader.templateSize.map { "\(reader.family):\($0)" } ?? reader.family
    }

    /// The kv key of the family of fingers the door's last pull took ("" for none).
    static let familyTakenKey = "hub.fingerFamily"

    /// Whether this pull takes fingers of a family the last one did not. A door from before the
    /// key took host fingers if it had an image sensor and none at a module: only a module's
    /// family is new to it then.
    private func takesNewFamily(_ reader: ReplicaReader?) throws(FleetSyncError) -> Bool {
        guard let family = reader?.family else { return false }
        let taken: String?
        do { taken = try store.value(forKey: Self.familyTakenKey) } catch { throw .store("\(error)") }
        if let taken { return taken != family }
        return family != HubFinger.hostFamily
    }

    /// What this door's reader takes of the hub's fingers, with the fleet's template key
    /// (fetched once with the door's certificate and kept sealed in the store): an image
    /// sensor's host templates, or a module's of its family and size once the store recorded
    /// them; nil for an unknown reader, or a hub that takes no fingers.
    private func replicaReader() throws(FleetSyncError) -> ReplicaReader? {
        switch reader {
        case .imageSensor(let capacity):
            guard let key = try templateKey() else { return nil }
            return ReplicaReader(family: HubFinger.hostFamily, capacity: capacity, templateKey: key)
        case .module:
            let library: RecordedModuleLibrary?
            do { library = try store.recordedModuleLibrary() } catch { throw .store("\(error)") }
            guard let library, let key = try templateKey() else { return nil }
            return ReplicaReader(family: library.family, templateSize: library.templateSize, capacity: library.capacity, templateKey: key)
        case .unknown:
            return nil
        }
    }

    private func templateKey() throws(FleetSyncError) -> FleetTemplateKey? {
        do { if let key = try store.fleetTemplateKey() { return key } } catch { throw .store("\(error)") }
        let answer: HubResponse
        do { answer = try client.send("GET", "/v1/template-key", json: nil, timeout: .seconds(30)) } catch {
            if error == .stopped { throw .stopped }
            throw .unreachable(error.description)
        }
        // A hub from before fingers travelled: this door keeps its fingers to itself.
        if answer.status == 404 { return nil }
        guard answer.status == 200 else { throw .refused(status: answer.status, message: answer.refusalMessage) }
        guard let json = try? JSONValue(parsing: String(decoding: answer.body, as: UTF8.self)),
              let key = json["key"]?.stringValue.flatMap(FleetTemplateKey.init(hex:)) else {
            throw .unexpectedAnswer("the template key is 64 hex digits")
        }
        do { try store.setFleetTemplateKey(key) } catch { throw .store("\(error)") }
        return key
    }

    /// Sends the fingers enrolled here for the hub's users that the hub does not hold yet, each
    /// sealed under the fleet's key; the hub makes each a change every door with a reader of the
    /// same family takes (every image sensor, or modules of this family and template size).
    /// One the hub refuses for good (its user gone from the hub: its tombstone is on the way) is
    /// audited and not sent again; anything else stops the sync and is tried at the next.
    public func uploadFingers(into report: inout FleetSyncReport) throws(FleetSyncError) {
        guard let replica = try replicaReader() else { return }
        while true {
            let pending: [FingerForHub]
            do { pending = try store.fingersForHub(limit: 100) } catch { throw .store("\(error)") }
            guard !pending.isEmpty else { return }
            for finger in pending {
                let body = HubFinger(user: finger.user, label: finger.label, family: replica.family, templateSize: finger.template.count,
                                     sealedTemplate: replica.templateKey.seal(finger.template, user: finger.user, label: finger.label,
                                                                              family: replica.family),
                                     quality: finger.quality, isDuress: finger.isDuress).json
                let answer = try post("/v1/fingers", body)
                switch answer.status {
                case 200:
                    report.fingersSent += 1
                case 404, 409:
                    report.fingersRefused.append("\(finger.user)'s \(finger.label)")
                    try audit("hub-finger-refused", user: finger.user, "the hub refused \(finger.label): \(answer.refusalMessage)")
                default:
                    throw .refused(status: answer.status, message: answer.refusalMessage)
                }
                do { try store.markFingerAtHub(user: finger.user, label: finger.label, digest: finger.digest) } catch { throw .store("\(error)") }
            }
        }
    }

    /// Sends the cards enrolled here for the hub's users (hashed under the fleet's card key,
    /// never the number) that the hub does not have; each becomes a change every door follows.
    /// One the hub refuses for good (its user gone, its number another's, its label taken) is
    /// audited, stays at this door, and is not sent again; anything else stops the sync.
    public func uploadCards(into report: inout FleetSyncReport) throws(FleetSyncError) {
        while true {
            let pending: [CardForHub]
            do { pending = try store.cardsForHub(limit: 100) } catch { throw .store("\(error)") }
            guard !pending.isEmpty else { return }
            for card in pending {
                let body = HubCard(user: card.user, label: card.label, kind: card.kind, numberHash: card.numberHash, enabled: card.enabled,
                                   validFrom: card.validFrom, validUntil: card.validUntil).json
                let answer = try post("/v1/cards", body)
                switch answer.status {
                case 200:
                    report.cardsSent += 1
                case 404, 409:
                    report.cardsRefused.append("\(card.user)'s \(card.label): \(answer.refusalMessage)")
                    try audit("hub-card-refused", user: card.user, "the hub refused card \(card.label): \(answer.refusalMessage); it opens this door only")
                default:
                    throw .refused(status: answer.status, message: answer.refusalMessage)
                }
                do { try store.markCardAtHub(user: card.user, label: card.label, atHub: answer.status == 200) } catch { throw .store("\(error)") }
            }
        }
    }

    /// Sends the changes made here to cards the hub has — switched off or on, new dates, removed
    /// — so every door follows (a lost card removed at one door opens none). The hub makes one
    /// only while its card of that label is still that number; a change of a card it no longer has
    /// (removed, or given another number, there) is audited and not sent again, and the hub's own
    /// change comes down at the next pull; a removal of one is done already. Anything else stops the sync.
    public func uploadCardChanges(into report: inout FleetSyncReport) throws(FleetSyncError) {
        while true {
            let pending: [CardEditForHub]
            do { pending = try store.cardEditsForHub(limit: 100) } catch { throw .store("\(error)") }
            guard !pending.isEmpty else { return }
            for edit in pending {
                let path: String, body: JSONValue
                switch edit.change {
                case .nothing:
                    do { try store.markCardEditAtHub(edit) } catch { throw .store("\(error)") }
                    continue
                case .removed:
                    (path, body) = ("/v1/cards/remove", .object(["user": .string(edit.user), "label": .string(edit.label),
                                                                "hash": .string(HexText.text(edit.numberHash))]))
                case .changed(let enabled, let validity):
                    (path, body) = ("/v1/cards/update", HubCardChange(user: edit.user, label: edit.label, numberHash: edit.numberHash,
                                                                     enabled: enabled, validity: validity).json)
                }
                let answer = try post(path, body)
                switch answer.status {
                case 200:
                    report.cardChangesSent += 1
                case 404 where edit.change == .removed:
                    break  // the hub has no such card already: that number opens no door as this user's card
                case 404, 409:
                    report.cardChangesRefused.append("\(edit.user)'s \(edit.label): \(answer.refusalMessage)")
                    try audit("hub-card-change-refused", user: edit.user,
                              "the hub did not take the change of card \(edit.label): \(answer.refusalMessage); the hub's own card comes down at the next sync")
                default:
                    throw .refused(status: answer.status, message: answer.refusalMessage)
                }
                do { try store.markCardEditAtHub(edit) } catch { throw .store("\(error)") }
            }
        }
    }

    /// One upload (`POST`, JSON): the hub's answer whatever its status, the connection's failures
    /// as every sync names them.
    private func post(_ path: String, _ body: JSONValue) throws(FleetSyncError) -> HubResponse {
        do { return try client.send("POST", path, json: Array(body.encoded.utf8), timeout: .seconds(30)) } catch {
            if error == .stopped { throw .stopped }
            throw .unreachable(error.description)
        }
    }

    /// An upload the hub refused for good, in this door's audit log.
    private func audit(_ event: String, user: String, _ detail: String) throws(FleetSyncError) {
        do { _ = try store.appendAudit(event: event, user: user, detail: detail) } catch { throw .store("\(error)") }
    }

    /// The answer's body for a 200; anything else is the hub's refusal in its words.
    private func send(_ method: String, _ path: String, body: [UInt8]? = nil,
                      timeout: Duration = .seconds(30)) throws(FleetSyncError) -> [UInt8] {
        let answer: HubResponse
        do { answer = try client.send(method, path, json: body, timeout: timeout) } catch {
            if error == .stopped { throw .stopped }
            throw .unreachable(error.description)
        }
        guard answer.status == 200 else { throw .refused(status: answer.status, message: answer.refusalMessage) }
        return answer.body
    }
}
