import FingerprintModule
import FingerprintProtocol
import TemplateStore

/// What kind of device answers, and where: for `info`, `status`, logs and the worker's
/// `connected` report.
public struct ReaderDescription: Equatable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// A UART module that captures, extracts and matches by itself (R30x, AS608, R50x…).
        case module
        /// A bare image sensor (FPC1020 over SPI, or the simulated one); the host matches.
        case imageSensor = "image-sensor"
    }

    public var kind: Kind
    /// "r307", "as608" … for a module; "FPC1020A" for a sensor.
    public var model: String
    /// How many fingers it can hold (module slots, or the host library's size).
    public var capacity: Int?
    /// Where it is attached: "/dev/serial0 at 57600 baud", "/dev/spidev0.0", "simulated".
    public var connection: String

    public init(kind: Kind, model: String, capacity: Int?, connection: String) {
        self.kind = kind
        self.model = model
        self.capacity = capacity
        self.connection = connection
    }

    public var description: String {
        let matching = kind == .module ? "matching on the module" : "matching on the host"
        return "\(model) on \(connection), \(matching)" + (capacity.map { ", \($0) fingers" } ?? "")
    }
}

/// "A fingerprint device" as the door service, the CLI and the bench need it, above the two
/// kinds fpmod drives: a UART module that matches by itself (`Administrator`, module + store)
/// and a bare image sensor whose images a host-side matcher compares against templates the
/// store keeps (`HostReader`). The policy, the store and the service see only this.
///
/// Slots: a module's are its flash pages; a host reader's are numbers in the host library the
/// store holds. Either way a slot the store does not know is a tamper finding, never a match.
///
/// Not `Sendable`: like the driver, a reader stays on the one thread that owns the device.
public protocol FingerprintReader: AnyObject {
    var readerDescription: ReaderDescription { get }
    /// The store that is the truth about who is enrolled.
    var store: TemplateStore { get }
    /// How long `enroll`, `identify` and `verify` wait for each touch.
    var fingerTimeout: Duration { get set }
    /// Asked while waiting for a finger: true ends the wait with `AdministrationError.cancelled`.
    var isCancelled: () -> Bool { get set }
    /// A test hook called at named points of crash-sensitive sequences (FPMOD_FAILPOINT).
    var failpoint: (String) throws -> Void { get set }

    /// How many touches one enrollment may take (`enroll --captures N`): a module merges 2…6 in
    /// its buffers; an image sensor's host matcher keeps 5…15 impressions of a small window.
    var enrollCaptureRange: ClosedRange<Int> { get }
    /// The touches an enrollment takes when none are asked for.
    var defaultEnrollCaptures: Int { get }

    /// Guided enrollment of one finger: either the template ends up in the device's library
    /// and the store, or in neither.
    @discardableResult
    func enroll(user: UserName, displayName: DisplayName?, label: FingerLabel, captures: Int, admin: Bool, duress: Bool,
                progress: (EnrollProgress) -> Void) throws -> EnrollResult
    /// 1:N: waits for a finger up to `fingerTimeout`, then searches everything enrolled.
    func identify() throws -> MatchOutcome
    /// 1:1 against each of the user's fingers.
    func verify(user: String) throws -> MatchOutcome
    /// Deletes one finger of a user, or (label nil) every finger and then the user.
    @discardableResult
    func delete(user: String, label: String?) throws -> DeleteResult
    /// Replaces the store's users and fingers (and the device's library) with a backup's;
    /// `replacing` confirms that existing users go. Templates the other kind of reader made
    /// are refused before anything changes.
    @discardableResult
    func restore(_ contents: BackupContents, replacing: Bool) throws -> RestoreResult

    /// The door service's scan: one capture and search, without waiting. `.noFinger` at once
    /// when nothing is on the sensor. `plan` orders a module's search (regulars first); a host
    /// reader searches its whole library in memory and may ignore it.
    func scanOnce(plan: SearchPlan?, timing: inout IdentifyTiming) throws -> IdentifyOutcome
    /// The door's 1:1 scan, once a card has said who: one capture compared with `user`'s fingers
    /// only (a module searches each of their slots, a host reader a gallery of them). A match is
    /// one of their slots; anyone else's finger is no match.
    func scanOnce(verifying user: String, timing: inout IdentifyTiming) throws -> IdentifyOutcome
    /// Whether a finger is on the sensor now (polling without a touch line, lift detection).
    func fingerIsDown() throws -> Bool
    /// Waits until a finger is on the sensor (true) or `deadline` passes (false). An image
    /// sensor waits on its interrupt line in poll(2); a module polls GenImg, paced by
    /// `fingerPollInterval`. Ends early with `AdministrationError.cancelled` when `isCancelled`.
    func waitForFinger(deadline: ContinuousClock.Instant) throws -> Bool
    /// A cheap "are you still there?" for the idle health check; throws when the device is gone.
    func checkAlive() throws
    /// True when `error` (thrown by this reader) means the device stopped answering: the
    /// service drops it and reconnects with backoff. False: the device answered, with a refusal.
    func isDeviceLoss(_ error: any Error) -> Bool
    /// Releases the device (port, SPI handle, lines). The reader is unusable afterwards.
    func close()
}

extension FingerprintReader {
    @discardableResult
    public func enroll(user: UserName, displayName: DisplayName? = nil, label: FingerLabel = "right-index", captures: Int? = nil,
                       admin: Bool = false, duress: Bool = false) throws -> EnrollResult {
        try enroll(user: user, displayName: displayName, label: label, captures: captures ?? defaultEnrollCaptures, admin: admin, duress: duress,
                   progress: { _ in })
    }

    /// Proof that someone was just verified by their finger (switches that need it).
    public func verification(from outcome: MatchOutcome) -> Verification? {
        if case .match(let found) = outcome { return Verification(found) }
        return nil
    }
}

/// The UART module with its store: the module captures, extracts and matches.
extension Administrator: FingerprintReader {
    public var enrollCaptureRange: ClosedRange<Int> { Administrator.captureRange }
    public var defaultEnrollCaptures: Int { 2 }

    public var readerDescription: ReaderDescription {
        ReaderDescription(kind: .module, model: module.family?.rawValue ?? "unknown module", capacity: module.capacity,
                          connection: module.transport.description)
    }

    public func scanOnce(plan: SearchPlan?, timing: inout IdentifyTiming) throws -> IdentifyOutcome {
        if let plan { return try module.identify(plan: plan, timing: &timing) }
        if let occupied = module.indexTable?.occupiedRange { return try module.identify(plan: .whole(occupied), timing: &timing) }
        return try module.identify(plan: .whole(0..<(try capacity)), timing: &timing)
    }

    /// A Search of one page per finger of `user`: the module compares with those templates only.
    public func scanOnce(verifying user: String, timing: inout IdentifyTiming) throws -> IdentifyOutcome {
        let slots = try store.fingers(of: user).map(\.slot).sorted()
        return try module.identify(plan: SearchPlan(ranges: slots.map { $0..<($0 + 1) }), timing: &timing)
    }

    public func fingerIsDown() throws -> Bool {
        try module.captureImage() != .noFinger
    }

    public func waitForFinger(deadline: ContinuousClock.Instant) throws -> Bool {
        while true {
            let polled = ContinuousClock.now
            if case .captured = try module.captureImage() { return true }
            if ContinuousClock.now >= deadline { return false }
            try pause(after: polled)
        }
    }

    public func checkAlive() throws {
        try module.handshake()
    }

    public func isDeviceLoss(_ error: any Error) -> Bool {
        if let error = error as? ModuleError { return error.isTransportFailure }
        if case AdministrationError.interrupted = error { return true }
        return false
    }

    public func close() {
        module.transport.close()
    }
}
