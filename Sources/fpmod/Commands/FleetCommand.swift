import ArgumentParsing
import Administration
import DoorFleet
import FleetSync
import Foundation
import HostReader
import JSONValue
import PrintableText
import TemplateStore

/// `fpmod fleet …` on a door that joined a fleet (`fpmod join`): its link to the hub. The
/// service follows the hub by itself; these are for a look, or a sync now.
enum FleetCommand {
    /// `fpmod fleet sync`: the hub's changes pulled and applied now, the door's events uploaded.
    static func sync(_ invocation: Invocation) throws -> ExitCode {
        let store = try invocation.openStore()
        let report: FleetSyncReport
        let membership: FleetMembership
        do {
            let link = try FleetLink(files: FleetFiles(storeDatabase: invocation.storePaths.database), store: store,
                                     reader: try doorReader(invocation, store: store))
            membership = link.membership
            report = try link.sync(fromStart: invocation.parsed.flag("from-start"))
        } catch let error as FleetSyncError {
            switch error {
            case .notJoined: throw CommandFailure(.config, error.description)
            case .unreachable: throw CommandFailure(.unavailable, error.description)
            case .store: throw CommandFailure(.ioError, error.description)
            default: throw CommandFailure(.denied, error.description)
            }
        }
        let applied = report.applied
        let changes = applied.from == applied.to ? "nothing new at revision \(applied.to)" : applied.summary
        let fingers = report.fingersSent == 0 && report.fingersRefused.isEmpty ? ""
            : "; \(report.fingersSent) finger(s) sent" + (report.fingersRefused.isEmpty ? "" : ", refused by the hub: " + report.fingersRefused.map { Printable.escaped($0) }.joined(separator: ", "))
        let cards = report.cardsSent == 0 && report.cardsRefused.isEmpty ? ""
            : "; \(report.cardsSent) card(s) sent" + (report.cardsRefused.isEmpty ? "" : ", refused by the hub: " + report.cardsRefused.map { Printable.escaped($0) }.joined(separator: ", "))
        let cardChanges = report.cardChangesSent == 0 && report.cardChangesRefused.isEmpty ? ""
            : "; \(report.cardChangesSent) card change(s) sent" + (report.cardChangesRefused.isEmpty ? "" : ", not taken by the hub: " + report.cardChangesRefused.map { Printable.escaped($0) }.joined(separator: ", "))
        let missing = report.eventsMissing.isEmpty ? "" : "; the hub misses records " + report.eventsMissing.map { "\($0.lowerBound)–\($0.upperBound)" }.joined(separator: ", ")
        let moduleWork = applied.fingersEnteringModule + applied.fingersLeavingModule == 0 ? ""
            : " The module follows: the running service changes its flash between touches, else the next command that opens it (fpmod sync)."
        invocation.emit("Synced with the hub at \(membership.hub) as \(Printable.escaped(membership.door)): \(changes)\(fingers)\(cards)\(cardChanges); \(report.eventsSent) audit records sent\(missing).\(moduleWork)",
                        json: ["hub": .string(membership.hub.description), "door": .string(membership.door), "from": .int(applied.from), "to": .int(applied.to),
                               "usersPut": .int(Int64(applied.usersPut)), "usersRemoved": .int(Int64(applied.usersRemoved)),
                               "schedulesPut": .int(Int64(applied.schedulesPut)), "schedulesRemoved": .int(Int64(applied.schedulesRemoved)),
                               "holidaysPut": .int(Int64(applied.holidaysPut)), "holidaysRemoved": .int(Int64(applied.holidaysRemoved)),
                               "fingersPut": .int(Int64(applied.fingersPut)), "fingersRemoved": .int(Int64(applied.fingersRemoved)),
                               "fingersForOtherReaders": .int(Int64(applied.fingersForOtherReaders)),
                               "fingersLeavingModule": .int(Int64(applied.fingersLeavingModule)),
                               "fingersEnteringModule": .int(Int64(applied.fingersEnteringModule)),
                               "cardsPut": .int(Int64(applied.cardsPut)), "cardsRemoved": .int(Int64(applied.cardsRemoved)),
                               "cardsTaken": .array(applied.cardsTaken.map(JSONValue.string)),
                               "fingersOfOtherFormats": .int(Int64(applied.fingersOfOtherFormats)),
                               "fingersSent": .int(Int64(report.fingersSent)), "fingersRefused": .array(report.fingersRefused.map(JSONValue.string)),
                               "cardsSent": .int(Int64(report.cardsSent)), "cardsRefused": .array(report.cardsRefused.map(JSONValue.string)),
                               "cardChangesSent": .int(Int64(report.cardChangesSent)),
                               "cardChangesRefused": .array(report.cardChangesRefused.map(JSONValue.string)),
                               "eventsSent": .int(Int64(report.eventsSent)),
                               "eventsMissing": .array(report.eventsMissing.map { .array([.int($0.lowerBound), .int($0.upperBound)]) })])
        return .ok
    }

    /// The door's reader, for the fleet's fingers: an image sensor when the command line or the
    /// config names one, or the store's fingers were enrolled on one; else a module (its family
    /// and size as the store last recorded them).
    static func doorReader(_ invocation: Invocation, store: TemplateStore) throws -> DoorReader {
        if try invocation.readerChoice().isImageSensor || StoreReaderKind.recorded(in: store) == .imageSensor {
            return .imageSensor(capacity: HostReader.defaultCapacity)
        }
        return .module
    }

    /// `fpmod fleet status`: which hub, as which door, at which revision, what was sent.
    static func status(_ invocation: Invocation) throws -> ExitCode {
        let files = FleetFiles(storeDatabase: invocation.storePaths.database)
        let membership: FleetMembership?
        do { membership = try files.membership() } catch { throw CommandFailure(.config, error.description) }
        guard let membership else {
            invocation.emit("This door joined no fleet: fpmod join URL CODE.", json: ["joined": false])
            return .ok
        }
        let store = try invocation.openStoreForReading()
        let revision = try store.hubRevision()
        let sent = try store.hubEventsSent()
        invocation.emit("""
            Follows the hub at \(membership.hub) as door \(Printable.escaped(membership.door)) (joined \(Date(timeIntervalSince1970: membership.joinedAt))).
            Fleet authority SHA-256 \(membership.authoritySHA256).
            At hub revision \(revision); audit records up to \(sent) are at the hub.
            """, json: ["joined": true, "hub": .string(membership.hub.description), "door": .string(membership.door),
                        "authoritySHA256": .string(membership.authoritySHA256), "joinedAt": .double(membership.joinedAt),
                        "revision": .int(revision), "eventsSent": .int(sent)])
        return .ok
    }
}
