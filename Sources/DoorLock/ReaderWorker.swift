import AccessPolicy
import Administration
import FingerprintModule
import FingerprintProtocol
import Foundation
import JSONValue
import Posix
import SerialPort
import TemplateStore

/// What the worker tells the service loop.
public enum WorkerReport: Sendable, Equatable {
    /// The reader answered its opening sequence (at start or after a loss): what it is.
    case connected(ReaderDescription)
    /// The reader stopped answering or could not be opened; retries follow with backoff.
    case disconnected(String)
    /// A scan finished (`timing.edge` is the request's edge stamp).
    case scanned(ScanOutcome, ScanTiming)
    /// Without a touch line: the finger was lifted after a scan (the next scan may start).
    case lifted
    /// The module is not the paired one.
    case tamper(ModuleTamperReason)
    /// An admin command finished: its reply and whether fingers changed.
    case adminDone(requestID: Int, reply: [String: JSONValue], enrolledSetChanged: Bool)
    /// A step of an admin command still running (enroll's "Place your finger (1/2)").
    case adminProgress(requestID: Int, line: [String: JSONValue])
    /// The search order scans use now (after each re-plan), for `status`.
    case searchOrder(LibraryStatus)
    /// The opener settled an interrupted operation (the repair's audit line), for the log.
    case repaired(String)
}

/// A control-socket admin command the worker runs with the reader it owns.
public enum AdminRequest: Sendable, Equatable {
    case enroll(EnrollRequest)
    case delete(user: String, label: String?)
}

/// What `enroll` through the control socket asks for (the same choices as `fpmod enroll`).
/// Names and label are checked types: the control socket and MQTT build them from what they
/// read, so a refused name is answered before the worker is asked anything.
public struct EnrollRequest: Sendable, Equatable {
    public var user: UserName
    public var label: FingerLabel = "right-index"
    public var displayName: DisplayName?
    /// Touches to take; nil: the reader's default (a module's 2, an image sensor's configured count).
    public var captures: Int?
    public var admin = false
    public var duress = false
    /// How long to wait for each touch; nil = the administrator's default.
    public var fingerTimeout: Duration?

    public init(user: UserName, label: FingerLabel = "right-index") {
        self.user = user
        self.label = label
    }
}

/// The one thread that owns the fingerprint reader (a module or an image sensor with its host
/// matcher; neither is thread-safe): it runs scans, admin and LED commands from a queue, polls
/// for a finger when there is no touch line, and re-opens a reader that stopped answering with
/// growing backoff. The service loop never waits for it: results come back through `post`.
///
/// `@unchecked Sendable`: the `let`s are Sendable; `condition` guards every `var` (jobs,
/// stopping, cancelled, started).
final class ReaderWorker: @unchecked Sendable {
    enum Job: Sendable, Equatable {
        /// `verifying`: a card said who, so 1:1 against that user's fingers instead of 1:N.
        case scan(edge: UInt64, verifying: String? = nil)
        case aura(LedPattern)
        case admin(requestID: Int, AdminRequest)
        /// The store changed behind the reader (the fleet's hub put or removed fingers): an idle
        /// step now, so a module's flash follows between touches, not at the next health check.
        case upkeep
    }

    struct Settings: Sendable {
        /// nil: a touch line triggers scans; otherwise the reader is polled at this interval.
        var pollInterval: Duration?
        var backoffInitial: Duration = .seconds(1)
        var backoffMaximum: Duration = .seconds(30)
        /// How often an idle reader is asked whether it is alive (with a touch line).
        var healthCheckInterval: Duration = .seconds(60)
        /// A module's LED ring (R50x); an image sensor has none.
        var useAura = false
        /// The store the reader is opened over: a module's pairing is checked against it at
        /// every open; admin commands (enroll, delete) change it.
        var store: TemplateStore?
        /// A module's search order and layout bounds (the config's `library`).
        var library = LockConfig.Library()
        /// Templates move only after this long without a scan or command, one move per idle step.
        var layoutQuietPeriod: Duration = .seconds(30)
        /// The search order is planned again after this many scans.
        var replanAfterScans = 20
    }

    private let connection: ReaderConnection
    private let settings: Settings
    private let post: @Sendable (WorkerReport) -> Void
    private let condition = NSCondition()
    private var jobs: [Job] = []
    private var stopping = false
    /// Admin requests whose client went away: their finger waits end early.
    private var cancelled: Set<Int> = []
    private let finished = DispatchSemaphore(value: 0)
    private var started = false

    init(connection: ReaderConnection, settings: Settings, post: @escaping @Sendable (WorkerReport) -> Void) {
        self.connection = connection
        self.settings = settings
        self.post = post
    }

    func start() {
        condition.lock()
        started = true
        condition.unlock()
        let thread = Thread { [self] in
            var loop = WorkerLoop(worker: self)
            loop.run()
            finished.signal()
        }
        thread.name = "fpmod-reader"
        thread.start()
    }

    func submit(_ job: Job) {
        condition.lock()
        // A newer LED state replaces one not yet shown.
        if case .aura = job { jobs.removeAll { if case .aura = $0 { true } else { false } } }
        // One upkeep step waiting does what two would.
        if job != .upkeep || !jobs.contains(.upkeep) { jobs.append(job) }
        condition.signal()
        condition.unlock()
    }

    /// Ends the finger wait of admin request `id` (its client is gone), or drops it unstarted.
    func cancel(requestID id: Int) {
        condition.lock()
        cancelled.insert(id)
        condition.unlock()
    }

    /// Whether admin request `id` should give up (cancelled, or the service is stopping).
    func shouldAbandon(requestID id: Int) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping || cancelled.contains(id)
    }

    /// Forgets a finished request's cancellation.
    func finished(requestID id: Int) {
        condition.lock()
        cancelled.remove(id)
        condition.unlock()
    }

    /// Asks the thread to finish after the command in flight, without waiting: a wait for a
    /// finger or between jobs ends at once; a module command runs to its reply or deadline.
    func requestStop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the thread has really ended (after `stop`), up to `timeout`: an embedder
    /// that goes on to reuse the port must not share it with a worker still finishing. False
    /// when it was still running at the end.
    @discardableResult
    func waitUntilFinished(timeout: Duration) -> Bool {
        condition.lock()
        let wasStarted = started
        condition.unlock()
        guard wasStarted else { return true }
        guard finished.wait(timeout: .now() + timeout.timeInterval) == .success else { return false }
        finished.signal()  // keep it signalled for any later waiter
        return true
    }

    // MARK: Used by the loop on the worker thread

    var config: Settings { settings }

    func report(_ report: WorkerReport) { post(report) }

    /// Opens the reader. A module goes through the one opener (`AdministrationOpener`, as the
    /// CLI uses): credentials from the pairing, identity compared, interrupted operations
    /// settled; it throws `untrustedModule` for a reset, swapped or foreign-address module, and
    /// every module it opened on the way is closed again. An image sensor's reader is the
    /// embedder's to make (`ReaderConnection.hostMatching`).
    func open() throws -> any FingerprintReader {
        guard let store = settings.store else { throw WorkerFailure("the service has no template store to open the reader over") }
        switch connection.kind {
        case .hostMatching(let open):
            return try open(store)
        case .module(let connection):
            return try openModule(connection, store: store)
        }
    }

    /// The embedder's `ReaderConnection.prepare`, if any.
    func prepare(_ reader: any FingerprintReader) throws {
        try connection.prepare?(reader)
    }

    private func openModule(_ connection: ModuleConnection, store: TemplateStore) throws -> Administrator {
        var opened: FingerprintModule?
        // What the open repairs is told once, as the CLI does: from the audit rows it adds.
        let before = lastAuditID(store)
        defer { reportRepairs(store, since: before) }
        do {
            let administrator = try AdministrationOpener.open(
                store: store, unpaired: (connection.unpairedAddress, connection.unpairedPassword)
            ) { address, password, probe in
                if let previous = opened { WorkerLoop.close(previous) }
                // Each attempt can take a while (a baud probe, seconds): none starts once stopping.
                if isStopping { throw WorkerFailure("the service is stopping") }
                opened = nil
                let module = try connection.connect(address, password, probe)
                opened = module
                return module
            }
            // Which templates this module's flash takes, for the fleet's fingers (`FleetLink`
            // reads it from the store while the reader is busy): a failed write only delays that.
            try? administrator.recordModuleTemplateFormat()
            return administrator
        } catch {
            if let opened { WorkerLoop.close(opened) }
            throw error
        }
    }

    /// The newest audit row's id (0 when none or unreadable): where `reportRepairs` starts.
    func lastAuditID(_ store: TemplateStore) -> Int64 {
        (try? store.auditEntries(limit: 1).last?.id) ?? 0
    }

    /// Tells each repair the store audited after row `before`, once.
    func reportRepairs(_ store: TemplateStore, since before: Int64) {
        for entry in (try? store.auditEntries(limit: 1000)) ?? [] where entry.id > before && entry.event == "repair" {
            report(.repaired(entry.detail ?? ""))
        }
    }

    /// The next job, or nil when `until` passes first; `.none` overall when stopping.
    func nextJob(until deadline: Date) -> Job?? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if stopping { return .none }
            if !jobs.isEmpty { return .some(jobs.removeFirst()) }
            if !condition.wait(until: deadline) { return stopping ? .none : .some(nil) }
        }
    }

    /// Sleeps until `deadline` unless stopping; false when stopping.
    func pause(until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !stopping {
            if !condition.wait(until: deadline) { break }
        }
        return !stopping
    }

    /// A scan, LED or admin job is waiting: a module's layout move in progress stops before writing.
    var hasPendingJobs: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping || !jobs.isEmpty
    }

    var isStopping: Bool {
        condition.lock()
        defer { condition.unlock() }
        return stopping
    }
}
