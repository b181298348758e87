import AccessPolicy
import Administration
import GPIO
import Posix
import TemplateStore

/// The service's mutable state, owned by the service thread: created there by `LockService`
/// and never handed to another thread (not `Sendable`). The worker and the PIN checker talk
/// back only through the front's inbox.
final class LockRuntime {
    let front: LockService

    var config: LockConfig
    var policy: AccessPolicy
    var state = PolicyState()
    var worker: ReaderWorker!
    var pinChecker: PinChecker!
    var inputs: [LineRole: any InputLine] = [:]
    var outputs: [LineRole: any OutputLine] = [:]
    var events: EventHub!
    var control: UnixListener!
    var clients: [UnixConnection] = []
    let hooks = HookRunner()
    let notifier: SystemdNotifier
    var pendingReplies: [Int: UnixConnection] = [:]
    /// Clients that shut down their sending side while an answer was still coming (a one-shot
    /// client such as `socat`): polled for hang-up only, closed once answered.
    var closingClients: Set<ObjectIdentifier> = []
    var nextRequestID = 1
    var touchArmed = true
    var scanInFlight = false
    /// An enroll or delete of the control socket is queued or running on the worker. It may
    /// queue behind a scan (the worker runs jobs in order); a second one is "busy".
    var adminInFlight = false
    var moduleConnected = false
    var relayOn = false
    var relayOffAt: ContinuousClock.Instant?
    var ledRevertAt: ContinuousClock.Instant?
    var buzzerOffAt: ContinuousClock.Instant?
    var watchdogAt: ContinuousClock.Instant?
    /// When the audit chain's head goes to the log next (at start, then every 10 minutes when it
    /// moved, and at stop), so a log cut short after it shows (`fpmod log verify`).
    var auditHeadAt: ContinuousClock.Instant? = .now
    var loggedAuditHead: Int64?
    /// Audit records the store refused (a full disk…), until it takes them again.
    var auditBacklog = AuditBacklog()
    /// When the kept records are tried again without a new one (every `auditRetryInterval`).
    var auditRetryAt: ContinuousClock.Instant?
    var prepared = false
    /// The Home Assistant bridge (nil without an `mqtt` section) and what it shows beyond the
    /// policy's state.
    var homeAssistant: HomeAssistantBridge?
    var homeAssistantFacts = HomeAssistantLockStatus()
    var homeAssistantJam = HomeAssistantJam(threshold: 0)
    var remoteRequests = RemoteRequests()
    /// The worker's last search-order plan (nil until the module opened), for `status`.
    var libraryStatus: LibraryStatus?
    /// What the worker last opened (kind, model, capacity), for `status`; nil until it did.
    var readerDescription: ReaderDescription?
    /// The door's PIN keypad (nil without a `keypad` section), and its entries being checked.
    var keypad: KeypadPort?
    /// Keypad entries being checked, by request id: when each was submitted.
    var keypadChecks: [Int: Double] = [:]
    /// The Wiegand reader (nil without a `wiegand` section, or when its lines could not be had).
    var wiegand: WiegandPort?
    /// Wiegand out to an access panel (nil without a `wiegandOut` section).
    var wiegandOut: WiegandOutPort?
    /// The NFC reader's thread (nil without an `nfc` section).
    var nfc: NFCPort?
    /// The store's `data_version` the access rules were read at (nil: read them again).
    var accessRulesVersion: Int64?
    /// Why the access rules could not be read, while they cannot (said once).
    var accessRulesProblem: String?
    /// The missing passage schedule already logged (said once per name).
    var passageProblemSaid: String?
    /// The fleet hub's silence, while it is longer than allowed (raised once, cleared once).
    var hubSilence: StaleFleet?
    /// When the hub's silence is checked next without a decision (once a minute).
    var hubSilenceCheckAt: ContinuousClock.Instant?
    /// The hub's enrolled set last looked at (`acceptEnrolledSetFromHub`).
    var hubEnrolledSetSeen: String?
    /// The revision of the hub's door mode last looked at (`acceptDoorModeFromHub`).
    var hubDoorModeSeen: Int64?
    /// The signal that ended the loop ("SIGTERM"), for the stopping line; nil for `stop()`.
    var stopReason: String?

    init(front: LockService) {
        self.front = front
        config = front.config
        policy = AccessPolicy(config: front.config.policy)
        notifier = SystemdNotifier(environment: front.options.environment)
    }

    /// Anything on the module: no new scan starts meanwhile.
    var moduleBusy: Bool { scanInFlight || adminInFlight }

    // The front's immutable parts and shared channels, by their old names.
    var preset: BoardPreset { front.preset }
    var chip: any GPIOChip { front.chip }
    var store: TemplateStore { front.store }
    var clock: LockClock { front.clock }
    var options: LockService.Options { front.options }
    var signals: SignalWatcher? { front.signals }
    var configLoader: (@Sendable () throws -> LockConfig)? { front.configLoader }
    var readerConnection: ReaderConnection { front.readerConnection }
    var wakeup: WakeupPipe { front.wakeup }
    var onEvent: (@Sendable (LockEvent) -> Void)? { front.onEvent }
    var log: @Sendable (String) -> Void { { [front] in front.writeLog($0) } }

    func post(_ message: LockService.Inbound) { front.post(message) }

    /// After the loop ended: wait (bounded) until the module thread has closed the port.
    func waitForModuleThread(timeout: Duration) {
        worker?.waitUntilFinished(timeout: timeout)
    }
}
