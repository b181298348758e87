import DoorFleet
import Dispatch
import Foundation
import Synchronization
import TemplateStore

/// A joined door following its hub on a thread of the service: a long poll for the changes
/// above its revision (the hub answers as soon as one commits, or after 25 s with none), each
/// applied as it comes, then its new audit records uploaded; after a failure it waits 1, 2, 4 …
/// up to 60 s before trying again. The door never waits for this: it decides from its store.
public final class FleetFollower: Sendable {
    public struct Status: Sendable, Equatable {
        /// When the hub last answered (a sync, even an empty one).
        public var lastContact: Date?
        /// The store's hub revision after the last sync.
        public var revision: Int64 = 0
        /// The last sync's problem; nil once one succeeded again.
        public var problem: String?
        /// The store's enrolled-set digest right after the hub last changed its fingers (a finger
        /// from another door, a user removed): the set the hub authorised, which the service
        /// records without asking for a PIN (`PolicyEvent.enrolledSetFromHub`).
        public var enrolledSetFromHub: String?
        /// The door mode the hub last set for this door (kept in the store), for the service.
        public var doorModeFromHub: HubDoorMode?
    }

    private let files: FleetFiles
    private let reader: DoorReader
    private let openStore: @Sendable () throws -> TemplateStore
    private let logSink: Mutex<@Sendable (String) -> Void>
    /// Before the first answer since start: the last contact kept in the store (so a restart
    /// does not make a long silence look fresh), else the join.
    private let baseline: Mutex<Date?> = Mutex(nil)
    private let state = Mutex(Status())
    private let stopping = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)
    private let started = Mutex(false)

    /// The long poll's wait, in seconds (the hub allows 30).
    static let pollSeconds = 25

    /// The store keeps the last contact at most this often (an SD card is not written every poll).
    static let contactKeptEvery: TimeInterval = 600
    static let lastContactKey = "hub.lastContact"

    public init(files: FleetFiles, reader: DoorReader = .unknown, openStore: @escaping @Sendable () throws -> TemplateStore,
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.files = files
        self.reader = reader
        self.openStore = openStore
        logSink = Mutex(log)
    }

    /// Where the follower's lines go (the service's log, once it exists).
    public func setLog(_ log: @escaping @Sendable (String) -> Void) { logSink.withLock { $0 = log } }

    private func log(_ line: String) { logSink.withLock { $0 }(line) }

    public var status: Status { state.withLock { $0 } }

    /// See `Status.enrolledSetFromHub`.
    public var enrolledSetFromHub: String? { state.withLock { $0.enrolledSetFromHub } }

    /// See `Status.doorModeFromHub`.
    public var doorModeFromHub: HubDoorMode? { state.withLock { $0.doorModeFromHub } }

    /// When the door last heard from its hub: this run's last answer, else the one the store
    /// kept, else the join. What the door's staleness alarm (`fleet.staleAfterMinutes`) reads.
    public var lastContact: Date? {
        if let contact = state.withLock({ $0.lastContact }) { return contact }
        if let known = baseline.withLock({ $0 }) { return known }
        let kept = (try? openStore()).flatMap { try? $0.value(forKey: Self.lastContactKey) }.flatMap(Double.init)
            ?? (try? files.membership())??.joinedAt
        let date = kept.map { Date(timeIntervalSince1970: $0) }
        baseline.withLock { $0 = date }
        return date
    }

    /// Starts following on a thread of its own.
    public func start() {
        guard started.withLock({ started in defer { started = true }; return !started }) else { return }
        let thread = Thread { [self] in
            follow()
            finished.signal()
        }
        thread.name = "fleet"
        thread.start()
    }

    /// Stops following: a request under way is cut within about a second.
    public func stop() {
        stopping.withLock { $0 = true }
        guard started.withLock({ $0 }) else { return }
        _ = finished.wait(timeout: .now() + 10)
    }

    private var shouldStop: Bool { stopping.withLock { $0 } }

    private func follow() {
        var failures = 0
        var lastKept = Date.distantPast
        var link: FleetLink?
        var store: TemplateStore?
        // A sync that applied fingers and then failed (an upload cut off) still changed the set.
        var unpublished = false
        while !shouldStop {
            let revisionBefore = (try? store?.hubRevision()) ?? nil
            do throws(FleetSyncError) {
                if store == nil {
                    do { store = try openStore() } catch { throw .store("\(error)") }
                }
                if link == nil, let store {
                    link = try FleetLink(files: files, store: store, reader: reader, shouldStop: { [self] in shouldStop })
                    log("fleet: following the hub at \(link!.membership.hub) as door \(link!.membership.door)")
                }
                guard let link else { return }
                let report = try link.sync(wait: failures == 0 ? Self.pollSeconds : 0)
                let recovered = state.withLock { status in
                    defer {
                        status.lastContact = Date()
                        status.revision = report.applied.to
                        status.problem = nil
                    }
                    return status.problem != nil
                }
                if recovered { log("fleet: the hub answers again, at revision \(report.applied.to)") }
                let now = Date()
                if now.timeIntervalSince(lastKept) >= Self.contactKeptEvery, let store {
                    try? store.setValue(String(now.timeIntervalSince1970), forKey: Self.lastContactKey)
                    lastKept = now
                }
                if report.applied.changedAnything { log("fleet: " + report.applied.summary) }
                if let mode = try? store?.hubDoorMode() { state.withLock { $0.doorModeFromHub = mode } }
                if report.applied.changedEnrolledSet || unpublished, let digest = try? store?.enrolledSetDigest() {
                    state.withLock { $0.enrolledSetFromHub = digest }
                    unpublished = false
                }
                failures = 0
            } catch .stopped {
                return
            } catch {
                failures += 1
                if let revisionBefore, (try? store?.hubRevision()) != revisionBefore { unpublished = true }
                let text = error.description
                let isNew = state.withLock { status in
                    defer { status.problem = text }
                    return status.problem != text
                }
                // Once per kind of problem, not once a minute for as long as it lasts.
                if isNew { log("fleet: \(text)") }
                if case .notJoined = error { link = nil }
                pause(seconds: min(60, 1 << min(failures - 1, 6)))
            }
        }
    }

    private func pause(seconds: Int) {
        let until = ContinuousClock.now + .seconds(seconds)
        while !shouldStop, ContinuousClock.now < until {
            Thread.sleep(forTimeInterval: 0.2)
        }
    }
}
