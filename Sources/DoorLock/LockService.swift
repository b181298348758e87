import AccessPolicy
import FingerprintModule
import Foundation
import GPIO
import Posix
import PrintableText
import Synchronization
import TemplateStore

/// The door/kiosk lock: one thread with one `poll()` over the GPIO inputs, the control and
/// events sockets, signals and the module worker's results; timers from the policy, the relay
/// pulse and the systemd watchdog. The reader runs on its own thread (`ReaderWorker`), so the
/// exit button, the door contact and the sockets are served while a scan is in flight. The
/// reader is a UART module or an image sensor matched on the host (`ReaderConnection`); the
/// policy is the same for both.
///
/// Embedding (tests, `fpmod demo`): create it, set `onEvent`, `start()`, drive the chip and the
/// simulator, `stop()`. `fpmod run` calls `run()` on the main thread with a `SignalWatcher`.
///
/// State has one owner: this class is only the `Sendable` front other threads touch (wakeup,
/// inbox, snapshot, stop, the observers). Everything the loop changes lives in `LockRuntime`,
/// created on the service thread and never shared, so nothing here needs `@unchecked`.
public final class LockService: Sendable {
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
        /// fpmod's version, for Home Assistant's device page.
        public var softwareVersion = "fpmod"
        /// Templates move (library layout) only after this long without a scan or command.
        public var layoutQuietPeriod: Duration = .seconds(30)
        /// The MQTT bridge's keepalive and reconnect delays.
        public var mqttTiming = MQTTConnectionTiming()
        /// When this door last heard from its fleet hub (nil: it follows none). Read before each
        /// decision and once a minute: a silence longer than the config's `fleet.staleAfterMinutes`
        /// raises the alarm and applies `fleet.whenStale`.
        public var hubLastContact: (@Sendable () -> Date?)?
        /// The enrolled set the fleet hub last authorised (the store's digest right after a sync
        /// changed its fingers): taken as this door's without a PIN when the store has exactly it.
        public var hubEnrolledSet: (@Sendable () -> String?)?
        /// The door mode the fleet hub last set for this door: put into effect once per revision
        /// (a local change after it wins until the hub sets the mode again).
        public var hubDoorMode: (@Sendable () -> HubDoorMode?)?

        public init(eventsSocket: String, controlSocket: String) {
            self.eventsSocket = eventsSocket
            self.controlSocket = controlSocket
        }

        /// The config's socket paths, else the default directory's.
        public init(config: LockConfig, environment: [String: String] = ProcessInfo.processInfo.environment) {
            let directory = LockConfig.defaultSocketDirectory(environment: environment, euid: CurrentProcess.effectiveUserID)
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

    // What the runtime is made from (immutable, Sendable).
    let config: LockConfig
    let preset: BoardPreset
    let chip: any GPIOChip
    let store: TemplateStore
    let clock: LockClock
    let options: Options
    let signals: SignalWatcher?
    let configLoader: (@Sendable () throws -> LockConfig)?
    let readerConnection: ReaderConnection

    // Shared with other threads, each behind its own lock.
    let wakeup: WakeupPipe
    let inbox = Mutex<[Inbound]>([])
    let shared = Mutex(Snapshot())
    let stopFlag = Mutex(false)
    private let observers = Mutex(Observers())
    private let thread = Mutex(ThreadState())
    private let finished = DispatchSemaphore(value: 0)

    private struct Observers {
        var onEvent: (@Sendable (LockEvent) -> Void)?
        var log: @Sendable (String) -> Void = { line in FileHandle.standardError.write(Data((line + "\n").utf8)) }
    }

    private struct ThreadState {
        var started = false
        var running = false
    }

    /// Called on the service thread for every event, public or not.
    public var onEvent: (@Sendable (LockEvent) -> Void)? {
        get { observers.withLock { $0.onEvent } }
        set { observers.withLock { $0.onEvent = newValue } }
    }

    /// Diagnostics (config reload, hook failures), one line each; stderr by default.
    public var log: @Sendable (String) -> Void {
        get { observers.withLock { $0.log } }
        set { observers.withLock { $0.log = newValue } }
    }

    /// How the service writes a line to `log`: a name, a module's string or an error text with
    /// a control character or a line break in it is escaped (`Printable`), so one line stays
    /// one line and nothing in it acts on the terminal or journal viewer showing it.
    func writeLog(_ line: String) {
        log(Printable.escaped(line))
    }

    enum Inbound: Sendable {
        case worker(WorkerReport)
        case pinChecked(PinCheck)
        case wiegandOutSent(WiegandOutPort.Result)
        case nfc(NFCPort.Happening)
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
        /// The PIN owner's own verify mode.
        var verifyMode: VerifyMode? = nil
    }

    /// A service on a UART module: the worker opens it through `AdministrationOpener` (pairing
    /// checked, interrupted operations settled) at start and again after every loss.
    public convenience init(config: LockConfig, preset: BoardPreset, chip: any GPIOChip,
                            module: ModuleConnection, store: TemplateStore,
                            clock: LockClock = .system, options: Options, signals: SignalWatcher? = nil,
                            configLoader: (@Sendable () throws -> LockConfig)? = nil) throws {
        try self.init(config: config, preset: preset, chip: chip, reader: .module(module), store: store, clock: clock,
                      options: options, signals: signals, configLoader: configLoader)
    }

    /// - Parameters:
    ///   - chip: where the preset's (and the config's) lines are requested.
    ///   - reader: how to reach the fingerprint reader, a module or an image sensor matched on
    ///     the host; opened at start and again after every loss.
    ///   - signals: SIGTERM/SIGINT stop, SIGHUP reloads through `configLoader`; create it before any thread.
    public init(config: LockConfig, preset: BoardPreset, chip: any GPIOChip,
                reader: ReaderConnection, store: TemplateStore,
                clock: LockClock = .system, options: Options, signals: SignalWatcher? = nil,
                configLoader: (@Sendable () throws -> LockConfig)? = nil) throws {
        self.config = config
        self.preset = preset
        self.chip = chip
        self.readerConnection = reader
        self.store = store
        self.clock = clock
        self.options = options
        self.signals = signals
        self.configLoader = configLoader
        self.wakeup = try WakeupPipe()
    }

    /// Starts the service on its own thread; returns once lines and sockets are set up (or
    /// throws why they could not be). The runtime is created on that thread and stays there.
    public func start() throws {
        let claimed = thread.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        guard claimed else { return }
        let ready = DispatchSemaphore(value: 0)
        let failure = Mutex<(any Error)?>(nil)
        let thread = Thread { [self] in
            let runtime = LockRuntime(front: self)
            do { try runtime.prepare() } catch {
                failure.withLock { $0 = error }
                ready.signal()
                return
            }
            self.thread.withLock { $0.running = true }
            ready.signal()
            runtime.loop()
            // An embedder gets the port back only once the module thread has let go of it.
            runtime.waitForModuleThread(timeout: .seconds(15))
            finished.signal()
        }
        thread.name = "fpmod-lock"
        thread.start()
        ready.wait()
        if let error = failure.withLock({ $0 }) {
            self.thread.withLock { $0.started = false }
            throw error
        }
    }

    /// Runs the service on the calling thread until `stop()` or SIGTERM/SIGINT.
    public func run() throws {
        let runtime = LockRuntime(front: self)
        try runtime.prepare()
        runtime.loop()
    }

    /// Leaves the door locked, the relay off and the lines released, then returns (thread-safe).
    public func stop() {
        stopFlag.withLock { $0 = true }
        wakeup.signal()
        let wasRunning = thread.withLock { state -> Bool in
            defer { state = ThreadState() }
            return state.running
        }
        if wasRunning { finished.wait() }
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
