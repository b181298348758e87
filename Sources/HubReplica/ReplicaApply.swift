import AccessPolicy
import Foundation
import HostMatching
import HubStore
import TemplateStore

/// The reader a door has, as far as the hub's fingers go: which family of templates it takes
/// (`HubFinger.hostFamily` for an image sensor's host matcher, a module family for a module),
/// how many slots its library has, and the fleet's key the templates come sealed under.
public struct ReplicaReader: Sendable, Equatable {
    public var family: String
    /// A module's template size (its templates only fit modules of that size); nil: any.
    public var templateSize: Int?
    public var capacity: Int
    public var templateKey: FleetTemplateKey

    public init(family: String, templateSize: Int? = nil, capacity: Int, templateKey: FleetTemplateKey) {
        self.family = family
        self.templateSize = templateSize
        self.capacity = capacity
        self.templateKey = templateKey
    }
}

/// What one sync did to the door's store.
public struct ReplicaResult: Sendable, Equatable {
    /// The hub revision the store had, and has now.
    public var from: Int64
    public var to: Int64
    public var usersPut = 0
    public var usersRemoved = 0
    public var schedulesPut = 0
    public var schedulesRemoved = 0
    public var holidaysPut = 0
    public var holidaysRemoved = 0
    /// The door mode the hub set for this door in this batch (the door's runtime applies it).
    public var doorMode: DoorMode?
    public var fingersPut = 0
    public var fingersRemoved = 0
    /// Fingers for another family of reader (a module's templates at an image-sensor door, or
    /// any finger at a door whose reader takes none from the hub): not stored here.
    public var fingersForOtherReaders = 0
    /// Fingers that did not fit: every slot of the reader's library taken.
    public var fingersWithoutRoom = 0
    /// Host fingers another version's matcher made (another template format): not stored; the
    /// user enrolls that finger again at any door.
    public var fingersOfOtherFormats = 0
    /// A removed user's fingers still in a module's flash: their rows went with the user, and a
    /// delete intent each stays until the reader deletes the template (`ReaderWorker`'s idle
    /// upkeep, or the next open of the module), so their touch is refused, never taken for tamper.
    public var fingersLeavingModule = 0
    /// Fingers put at a module door: in the store now, in the module's flash once the reader
    /// wrote them (a restore intent for the slot each, finished like `fingersLeavingModule`).
    public var fingersEnteringModule = 0
    public var cardsPut = 0
    public var cardsRemoved = 0
    /// Cards of the hub whose number a card of this door's own user has: that card kept, the
    /// hub's not stored ("user's label" each).
    public var cardsTaken: [String] = []
    /// Changes at or below the door's revision (a replay, a reordered retry) or superseded by a
    /// later change of the same thing in the batch: not applied again.
    public var ignored = 0
    /// Schedules the hub removed that a user of this door alone still has: kept, since removing
    /// a user's schedule would let them in at every hour.
    public var kept: [String] = []

    public init(from: Int64, to: Int64) {
        self.from = from
        self.to = to
    }

    /// This result followed by `next`'s (the batch after it): one tally from the first revision to the last.
    public mutating func add(_ next: ReplicaResult) {
        to = next.to
        usersPut += next.usersPut
        usersRemoved += next.usersRemoved
        schedulesPut += next.schedulesPut
        schedulesRemoved += next.schedulesRemoved
        doorMode = next.doorMode ?? doorMode
        holidaysPut += next.holidaysPut
        holidaysRemoved += next.holidaysRemoved
        fingersPut += next.fingersPut
        fingersRemoved += next.fingersRemoved
        fingersForOtherReaders += next.fingersForOtherReaders
        fingersWithoutRoom += next.fingersWithoutRoom
        fingersLeavingModule += next.fingersLeavingModule
        fingersEnteringModule += next.fingersEnteringModule
        cardsPut += next.cardsPut
        cardsRemoved += next.cardsRemoved
        cardsTaken += next.cardsTaken
        fingersOfOtherFormats += next.fingersOfOtherFormats
        ignored += next.ignored
        kept += next.kept
    }

    /// Whether the door's enrolled fingers may have changed (a finger put or removed, a user removed).
    public var changedEnrolledSet: Bool { fingersPut + fingersRemoved + usersRemoved > 0 }

    public var changedAnything: Bool {
        usersPut + usersRemoved + schedulesPut + schedulesRemoved + holidaysPut + holidaysRemoved + fingersPut + fingersRemoved + cardsPut + cardsRemoved > 0
            || doorMode != nil
    }

    /// "revision 4 → 9: users +2 −1, schedules +0 −0, fingers +3 −0", as the service's log and
    /// `fpmod fleet sync` say it (and what this door's reader cannot take).
    public var summary: String {
        var text = "revision \(from) → \(to): users +\(usersPut) −\(usersRemoved), schedules +\(schedulesPut) −\(schedulesRemoved), "
            + "holidays +\(holidaysPut) −\(holidaysRemoved), fingers +\(fingersPut) −\(fingersRemoved)"
        if fingersForOtherReaders > 0 { text += "; \(fingersForOtherReaders) finger(s) for another kind of reader not stored" }
        if fingersWithoutRoom > 0 { text += "; \(fingersWithoutRoom) finger(s) without room in the library" }
        if fingersLeavingModule > 0 { text += "; \(fingersLeavingModule) finger(s) to be deleted from the module" }
        if fingersEnteringModule > 0 { text += "; \(fingersEnteringModule) finger(s) to be written to the module" }
        if fingersOfOtherFormats > 0 { text += "; \(fingersOfOtherFormats) finger(s) made by another version's matcher not stored (enroll them again)" }
        if cardsPut + cardsRemoved > 0 { text += "; cards +\(cardsPut) −\(cardsRemoved)" }
        if !cardsTaken.isEmpty { text += "; \(cardsTaken.count) card(s) a user of this door has kept, the hub's not stored" }
        if let doorMode { text += "; door mode \(doorMode.rawValue) set at the hub" }
        return text
    }
}

/// The door's side of the fleet: the hub's changes applied to the door's store, its replica.
///
/// A batch is applied whole or not at all: every change is read and checked by the door's own
/// rules before the first write, then all of it and the revision it reaches are one SQLite
/// transaction, so a power cut leaves the door at the revision before or after, never between.
/// The door keeps deciding from its store alone; the hub is never on the path to the relay.
public enum ReplicaApply {
    /// The audit event of a sync that changed something (its detail says what).
    public static let auditEvent = "hub-sync"

    /// `reader`: what this door's reader takes of the hub's fingers; nil: none (a door whose
    /// reader is not known yet: a module door before its module was first opened).
    /// `fromStart`: `changes` begin at the log's start (`fpmod fleet sync --from-start`), so none
    /// is taken for a replay of what the door has; each is the thing's whole state, so applying
    /// it again changes nothing but what the door had left out.
    /// `door`: this door's name at the hub (its mode changes are taken, other doors' are not).
    public static func apply(_ changes: [HubChange], to store: TemplateStore, reader: ReplicaReader? = nil, door: String? = nil,
                             fromStart: Bool = false, at time: Date = Date()) throws(ReplicaError) -> ReplicaResult {
        var current: Int64 = 0
        if !fromStart {
            do { current = try store.hubRevision() } catch { throw .store("\(error)") }
        }
        // The latest change of each thing above the door's revision; older ones are history.
        var latest: [String: HubChange] = [:]
        for change in changes where change.revision > current {
            let id = change.kind.rawValue + "\u{0}" + change.key
            if let seen = latest[id], seen.revision >= change.revision { continue }
            latest[id] = change
        }
        var result = ReplicaResult(from: current, to: current)
        result.ignored = changes.count - latest.count
        guard let newest = latest.values.map(\.revision).max() else { return result }

        var read: [ReplicaChange] = []
        for change in latest.values.sorted(by: { $0.revision < $1.revision }) { read.append(try ReplicaChange.read(change)) }
        // Every finger this reader takes opened and checked before the first write.
        var fingers: [(finger: ReplicatedFinger, template: [UInt8])] = []
        for case let .putFinger(finger) in read {
            guard let reader, finger.family == reader.family, reader.templateSize == nil || reader.templateSize == finger.size else {
                result.fingersForOtherReaders += 1
                continue
            }
            let key = HubFinger.changeKey(user: finger.user.text, label: finger.label.text, family: finger.family)
            let revision = finger.revision
            guard let template = reader.templateKey.open(finger.sealed, user: finger.user.text, label: finger.label.text, family: finger.family),
                  template.count == finger.size else {
                throw .unreadable(kind: "finger", key: key, revision: revision, problem: "its template does not open under the fleet's template key")
            }
            if finger.family == HubFinger.hostFamily {
                guard let format = HostTemplate(bytes: template).format else {
                    throw .unreadable(kind: "finger", key: key, revision: revision, problem: "it is not a template of fpmod's host matcher")
                }
                // Another version's matcher made it (a finger enrolled before an upgrade): this door
                // cannot use it, and the rest of the log must still arrive (a revocation behind it).
                // Counted and said; enrolled again at any door, its new template replaces it.
                guard format == HostTemplate.currentFormat else {
                    result.fingersOfOtherFormats += 1
                    continue
                }
            }
            fingers.append((finger, template))
        }

        do {
            try store.transaction {
                // Schedules first (users name them), removals last (a removed schedule's users
                // changed first).
                for case let .putSchedule(name, schedule) in read {
                    try store.addSchedule(name: name, schedule: schedule, replace: true, at: time)
                    result.schedulesPut += 1
                }
                // A holiday replaced is one statement pair in the batch's transaction.
                let holidays = Set(try store.holidays().map(\.name))
                for case let .putHoliday(name, first, last, yearly, hours) in read {
                    if holidays.contains(name.text) { try store.deleteHoliday(name: name.text) }
                    try store.addHoliday(name: name, first: first, last: last, yearly: yearly, hours: hours, at: time)
                    result.holidaysPut += 1
                }
                for case let .deleteHoliday(name) in read where holidays.contains(name) {
                    try store.deleteHoliday(name: name)
                    result.holidaysRemoved += 1
                }
                for case let .putDoorMode(name, mode, revision) in read where name == door {
                    try store.setHubDoorMode(HubDoorMode(mode: mode.rawValue, revision: revision))
                    result.doorMode = mode
                }
                for case let .putUser(user) in read {
                    try store.putReplicatedUser(user, at: time)
                    result.usersPut += 1
                }
                // A card moved to another user removes the old before it puts the new.
                for case let .deleteCard(user, label) in read {
                    if try store.deleteReplicatedCard(user: user, label: label) { result.cardsRemoved += 1 }
                }
                for case let .putCard(card) in read {
                    switch try store.putReplicatedCard(user: card.user, label: card.label, kind: card.kind, hash: card.hash, enabled: card.enabled,
                                                       validFrom: card.validFrom, validUntil: card.validUntil, at: time) {
                    case .added, .replaced: result.cardsPut += 1
                    case .unchanged: break
                    case .noSuchUser: result.ignored += 1
                    case .taken(let user, let label): result.cardsTaken.append("\(user)'s \(label)")
                    }
                }
                // A module door's slots are flash pages: the store changes now, and the module
                // follows through an intent per slot in this transaction (a restore of the slot for
                // a finger that arrived, a delete for one that left), finished by the reader.
                let markedImageSensor = try store.value(forKey: TemplateStore.readerKindKey) == TemplateStore.imageSensorReaderKind
                let slotsAreFlash = reader?.family != HubFinger.hostFamily && !markedImageSensor
                if let reader {
                    let arriving = slotsAreFlash ? try store.slotsArrivingFromHub() : []
                    for (finger, template) in fingers {
                        let slot: Int
                        switch try store.putReplicatedFinger(user: finger.user, label: finger.label, template: template, quality: finger.quality,
                                                             duress: finger.isDuress, capacity: reader.capacity, at: time) {
                        case .added(let put), .replaced(let put):
                            result.fingersPut += 1
                            slot = put
                        case .unchanged: continue
                        case .noSuchUser:
                            result.ignored += 1
                            continue
                        case .full:
                            result.fingersWithoutRoom += 1
                            continue
                        }
                        if slotsAreFlash {
                            // One intent writes the slot's template as the store has it at that time.
                            if !arriving.contains(slot) {
                                _ = try store.beginIntent(.restore, user: finger.user.text, label: finger.label.text, slot: slot, createdAt: time)
                            }
                            result.fingersEnteringModule += 1
                        }
                    }
                    for case let .deleteFinger(user, label, family) in read where family == reader.family {
                        if slotsAreFlash, try store.user(named: user) != nil,
                           let finger = try store.fingers(of: user).first(where: { $0.label == label }) {
                            _ = try store.beginIntent(.delete, user: user, label: label, slot: finger.slot, createdAt: time)
                            result.fingersLeavingModule += 1
                        }
                        if try store.deleteReplicatedFinger(user: user, label: label) { result.fingersRemoved += 1 }
                    }
                }
                for case let .deleteUser(name) in read {
                    guard try store.user(named: name) != nil else { continue }
                    if slotsAreFlash {
                        for finger in try store.fingers(of: name) {
                            _ = try store.beginIntent(.delete, user: name, label: finger.label, slot: finger.slot, createdAt: time)
                            result.fingersLeavingModule += 1
                        }
                    }
                    try store.deleteUser(name)
                    result.usersRemoved += 1
                }
                // The store's own rule decides what may go: it refuses a schedule a user still
                // has (in a savepoint, so the refusal undoes nothing else of the batch).
                for case let .deleteSchedule(name) in read {
                    do {
                        try store.deleteSchedule(name: name)
                        result.schedulesRemoved += 1
                    } catch StoreError.scheduleInUse {
                        result.kept.append(name)
                    } catch StoreError.unknownSchedule {
                        continue
                    }
                }
                try store.setHubRevision(newest)
                _ = try store.appendAudit(event: auditEvent, detail: summary(of: result, to: newest), time: time)
            }
        } catch {
            throw .store("\(error)")
        }
        result.to = newest
        return result
    }

    static func summary(of result: ReplicaResult, to revision: Int64) -> String {
        var parts = ["revision \(result.from) to \(revision)"]
        if result.usersPut > 0 { parts.append("\(result.usersPut) user(s) added or changed") }
        if result.usersRemoved > 0 { parts.append("\(result.usersRemoved) removed") }
        if result.schedulesPut > 0 { parts.append("\(result.schedulesPut) schedule(s) added or changed") }
        if result.schedulesRemoved > 0 { parts.append("\(result.schedulesRemoved) schedule(s) removed") }
        if result.holidaysPut > 0 { parts.append("\(result.holidaysPut) holiday(s) added or changed") }
        if result.holidaysRemoved > 0 { parts.append("\(result.holidaysRemoved) holiday(s) removed") }
        if let mode = result.doorMode { parts.append("door mode \(mode.rawValue) set at the hub") }
        if result.fingersPut > 0 { parts.append("\(result.fingersPut) finger(s) added or replaced") }
        if result.fingersRemoved > 0 { parts.append("\(result.fingersRemoved) finger(s) removed") }
        if result.fingersLeavingModule > 0 { parts.append("\(result.fingersLeavingModule) finger(s) to be deleted from the module") }
        if result.fingersEnteringModule > 0 { parts.append("\(result.fingersEnteringModule) finger(s) to be written to the module") }
        if result.fingersOfOtherFormats > 0 { parts.append("\(result.fingersOfOtherFormats) finger(s) made by another version's matcher not stored") }
        if result.cardsPut > 0 { parts.append("\(result.cardsPut) card(s) added or changed") }
        if result.cardsRemoved > 0 { parts.append("\(result.cardsRemoved) card(s) removed") }
        if !result.cardsTaken.isEmpty { parts.append("the hub's card(s) kept out, a user of this door has the number: \(result.cardsTaken.joined(separator: ", "))") }
        if result.fingersForOtherReaders > 0 { parts.append("\(result.fingersForOtherReaders) finger(s) for another kind of reader not stored") }
        if result.fingersWithoutRoom > 0 { parts.append("\(result.fingersWithoutRoom) finger(s) without room in the library") }
        if !result.kept.isEmpty { parts.append("kept \(result.kept.sorted().joined(separator: ", ")): a user of this door has it") }
        return parts.joined(separator: "; ")
    }
}
