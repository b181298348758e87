import AccessPolicy
import FingerprintModule
import Foundation
import GPIO
import Posix
import Synchronization
import TemplateStore

/// The door/kiosk lock: one thread with one `poll()` over the GPIO inputs, the control and
/// events sockets, signals and the module worker's results; timers from the policy, the relay
/// pulse and the systemd watchdog. The module runs on its own thread (`ModuleWorker`), so the
/// exit button, the door contact and the sockets are served while a scan is in flight.
///
/// Embedding (tests, `fpmod demo`): create it, set `onEvent`, `start()`, drive the chip and the
/// simulator, `stop()`. `fpmod run` calls `run()` on the main thread with a `SignalWatcher`.
public final class LockService: @unchecked Sendable {
    /// Knobs that are not part of the config file.
    public struct Options: Sendable {
        public var eventsSocket: String
        public var controlSocket: String
        /// Re-open backoff for a module that stopped answering (doubles up to the maximum).
        public var backoffInitial: Duration = .seconds(1)
        public var backoffMaximum: Duration = .seconds(30)
        /// With a touch line, how often an idle module is checked.
        public var healthCheckInterval: Duration = .seconds(60)
        /// How long the match/deny LED shows before going back to idle.
        public var feedbackDuration: Duration = .milliseconds(1500)
        /// What this service serves, for `status`: a CLI given --port/--store goes through the
        /// service only when they are the same (nil: not said).
        public var modulePort: String?
        public var storePath: String?
        /// How many PIN checks may wait behind the one running; more get "busy" at once.
        public var pinQueueLimit = 4
        /// Peers (by uid, from `SO_PEERCRED`) whose `clear` needs no PIN: root on this machine.
        public var trustedClearUIDs: Set<UInt32> = [0]
        /// For `NOTIFY_SOCKET` / `WATCHDOG_USEC`.
        public var environment: [String: String] = [:]

        public init(eventsSocket: String, controlSocket: String) {
            self.eventsSocket = eventsSocket
            self.controlSocket = controlSocket
        }

        /// The config's socket paths, else the default directory's.
        public init(config: LockConfig, environment: [String: String] = ProcessInfo.processInfo.environment) {
            let directory = LockConfig.defaultSocketDirectory(environment: environment, euid: geteuid())
            self.init(eventsSocket: config.eventsSocket ?? directory + "/events.sock",
                      controlSocket: config.controlSocket ?? directory + "/control.sock")
            self.environment = environment
        }
    }

    /// What tests and dashboards can read from any thread.
    public struct Snapshot: Sendable, Equatable {
        public var running = false
        public var relayOn = false
        public var scanInFlight = false
        public var moduleConnected = false
        public var policy = PolicyState()
        public var eventCount = 0
    }

    /// The key under which the policy state is kept in the store.
    public static let policyStateKey = "doorlock.policy-state"

    var config: LockConfig
    let preset: BoardPreset
    let chip: any GPIOChip
    let store: TemplateStore
    let clock: LockClock
    let options: Options
    let signals: SignalWatcher?
    let configLoader: (@Sendable () throws -> LockConfig)?
    let moduleConnection: ModuleConnection
    let notifier: SystemdNotifier

    /// Called on the service thread for every event, public or not (set before `start`).
    public var onEvent: (@Sendable (LockEvent) -> Void)?
    /// Diagnostics (config reload, hook failures), one line each; stderr by default.
    public var log: @Sendable (String) -> Void = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }

    // Shared with other threads.
    let wakeup: WakeupPipe
    let inbox = Mutex<[Inbound]>([])
    let shared = Mutex(Snapshot())
    let stopFlag = Mutex(false)
    let finished = DispatchSemaphore(value: 0)

    // Owned by the service thread.
    var policy: AccessPolicy
    var state = PolicyState()
    var worker: ModuleWorker!
    var pinChecker: PinChecker!
    var inputs: [LineRole: any InputLine] = [:]
    var outputs: [LineRole: any OutputLine] = [:]
    var events: EventHub!
    var control: UnixListener!
    var clients: [UnixConnection] = []
    let hooks = HookRunner()
    var pendingReplies: [Int: UnixConnection] = [:]
    var nextRequestID = 1
    var touchArmed = true
    var scanInFlight = false
    /// An enroll or delete of the control socket is queued or running on the worker. It may
    /// queue behind a scan (the worker runs jobs in order); a second one is "busy".
    var adminInFlight = false
    /// Anything on the module: no new scan starts meanwhile.
    var moduleBusy: Bool { scanInFlight || adminInFlight }
    var moduleConnected = false
    var relayOn = false
    var relayOffAt: ContinuousClock.Instant?
    var ledRevertAt: ContinuousClock.Instant?
    var buzzerOffAt: ContinuousClock.Instant?
    var watchdogAt: ContinuousClock.Instant?
    var startedThread = false
    var prepared = false

    enum Inbound: Sendable {
        case worker(WorkerReport)
        case pinChecked(PinCheck)
        case reload
    }

    /// A PIN verified off the loop (the hash is memory-hard and takes a while).
    struct PinCheck: Sendable {
        var requestID: Int
        var action: PinPurpose
        var user: String?
        var correct: Bool
        var isAdmin: Bool
        var problem: String?
    }

    /// - Parameters:
    ///   - chip: where the preset's (and the config's) lines are requested.
    ///   - module: how to reach the module; the worker opens it through `AdministrationOpener`
    ///     (pairing checked, interrupted operations settled) at start and again after every loss.
    ///   - signals: SIGTERM/SIGINT stop, SIGHUP reloads through `configLoader`; create it before any thread.
    public init(config: LockConfig, preset: BoardPreset, chip: any GPIOChip,
                module: ModuleConnection, store: TemplateStore,
                clock: LockClock = .system, options: Options, signals: SignalWatcher? = nil,
                configLoader: (@Sendable () throws -> LockConfig)? = nil) throws {
        self.config = config
        self.preset = preset
        self.chip = chip
        self.moduleConnection = module
        self.store = store
        self.clock = clock
        self.options = options
        self.signals = signals
        self.configLoader = configLoader
        self.notifier = SystemdNotifier(environment: options.environment)
        self.policy = AccessPolicy(config: config.policy)
        self.wakeup = try WakeupPipe()
    }

    /// Starts the service on its own thread; returns once lines and sockets are set up.
    public func start() throws {
        try prepare()
        startedThread = true
        let thread = Thread { [self] in
            loop()
            finished.signal()
        }
        thread.name = "fpmod-lock"
        thread.start()
    }

    /// Runs the service on the calling thread until `stop()` or SIGTERM/SIGINT.
    public func run() throws {
        try prepare()
        loop()
    }

    /// Leaves the door locked, the relay off and the lines released, then returns (thread-safe).
    public func stop() {
        stopFlag.withLock { $0 = true }
        wakeup.signal()
        if startedThread {
            finished.wait()
            // The relay is off and the sockets are closed already; what is left is a module
            // command in flight. `run()` exits the process instead; an embedder gets the port back.
            worker?.waitUntilFinished(timeout: .seconds(15))
        }
        startedThread = false
    }

    /// Re-reads the config through `configLoader`, as SIGHUP does (thread-safe).
    public func requestReload() { post(.reload) }

    /// A copy of the service's state, from any thread.
    public var snapshot: Snapshot { shared.withLock { $0 } }

    func post(_ message: Inbound) {
        inbox.withLock { $0.append(message) }
        wakeup.signal()
    }
}
