import Administration
import HostMatching
import ImageSensor
import TemplateStore

/// A bare image sensor (FPC1020, or the simulated one) with the host matcher and the store:
/// the sensor only delivers images; minutiae are extracted and compared here
/// (`MinutiaeMatcher`: our extractor, cylinder codes, a calibrated threshold), against
/// templates the store keeps encrypted.
///
/// Slots are numbers 0..<`capacity` in the host library the store holds; nothing lives on the
/// sensor, so every change is one store transaction and needs no intent: a crash before the
/// commit leaves nothing behind, one after it leaves the change complete.
///
/// The gallery (the cylinders of every enrolled impression) is built on first use and rebuilt only
/// after this reader's enroll or delete, or when the store's enrolled-set digest changed under
/// it (another process enrolled).
///
/// Not `Sendable`: like the module driver, keep it on the thread that owns the sensor.
public final class HostReader: FingerprintReader {
    /// Host slots of a new reader: enough for any household or office, and a 1:N search over
    /// all of them stays well under a second (README, "SPI sensors").
    public static let defaultCapacity = 1000

    public let store: TemplateStore
    public let matcher: MinutiaeMatcher
    /// The host library's size: slots 0..<capacity.
    public let capacity: Int
    public var fingerTimeout: Duration = .seconds(15)
    public var isCancelled: () -> Bool = { false }
    /// Called at "enroll.before-commit" and "delete.before-commit" (FPMOD_FAILPOINT); with no
    /// intents, a process killed there leaves the store as it was.
    public var failpoint: (String) throws -> Void = { _ in }
    /// How long one wait on the sensor lasts before `isCancelled` is asked again.
    public var cancellationSlice: Duration = .milliseconds(200)
    /// The pause between two captures while waiting for the finger to lift.
    public var liftPollInterval: Duration = .milliseconds(50)
    /// Touches an enrollment takes when none are asked for (the config's
    /// `imageSensor.enrollCaptures`), within `enrollCaptureRange`.
    public var defaultEnrollCaptures = MinutiaeMatcher.defaultEnrollCaptures
    public var enrollCaptureRange: ClosedRange<Int> { MinutiaeMatcher.enrollCaptureRange }

    let identity: SensorIdentity
    private var openSensor: (any ImageSensor)?
    /// The gallery as last built; nil: build on next use.
    var cachedGallery: HostGallery?
    /// How many times the gallery was built whole from the store (a diagnostic: enroll and
    /// delete update it in place, so this grows only when another process changed the store).
    public private(set) var galleryBuilds = 0

    /// Checks the store is not a module's (paired with one, marked so, or holding module
    /// templates): throws `HostReaderError.storeBelongsToModule` naming the fix. A store that
    /// already holds (host) fingers is marked as an image sensor's here; an empty one at its
    /// first enroll, so merely opening an empty store does not claim it.
    public init(sensor: any ImageSensor, store: TemplateStore, matcher: MinutiaeMatcher = MinutiaeMatcher(),
                capacity: Int = HostReader.defaultCapacity) throws {
        precondition(capacity > 0, "a host library holds at least one slot")
        let marked = try StoreReaderKind.recorded(in: store) == .imageSensor
        try HostStoreGuard.check(store, deep: !marked)
        if !marked, try !store.occupiedSlots().isEmpty { try StoreReaderKind.record(.imageSensor, in: store) }
        self.openSensor = sensor
        self.identity = sensor.identity
        self.store = store
        self.matcher = matcher
        self.capacity = capacity
    }

    /// What the config's `imageSensor` section sets.
    public struct Settings: Sendable, Equatable {
        public var enrollCaptures: Int
        /// Per identify attempt by a stranger (see `MinutiaeMatcher.falseMatchRate`).
        public var falseMatchRate: Double

        public init(enrollCaptures: Int = MinutiaeMatcher.defaultEnrollCaptures,
                    falseMatchRate: Double = MinutiaeMatcher.defaultFalseMatchRate) {
            self.enrollCaptures = enrollCaptures
            self.falseMatchRate = falseMatchRate
        }
    }

    public convenience init(sensor: any ImageSensor, store: TemplateStore, settings: Settings,
                            capacity: Int = HostReader.defaultCapacity) throws {
        try self.init(sensor: sensor, store: store, matcher: MinutiaeMatcher(falseMatchRate: settings.falseMatchRate), capacity: capacity)
        defaultEnrollCaptures = settings.enrollCaptures
    }

    public var readerDescription: ReaderDescription {
        ReaderDescription(kind: .imageSensor, model: identity.model, capacity: capacity, connection: identity.connection)
    }

    /// The sensor, or `.closed` after `close()`.
    var sensor: any ImageSensor {
        get throws {
            guard let openSensor else { throw HostReaderError.closed }
            return openSensor
        }
    }

    /// The ImageSensor protocol has no "read your id" call; `reset()` resets the sensor and
    /// reads its hardware-id register back (an FPC1020 that stopped answering reads 0x0000 or
    /// 0xFFFF, or raises no power-on interrupt), which is the check wanted, at a few
    /// milliseconds. Only called while idle, so no finger detection is interrupted.
    public func checkAlive() throws {
        try sensor.reset()
    }

    /// The SPI bus or the GPIO lines failed, the sensor went silent, or the socket of a sensor
    /// simulated by another process broke: drop it and reconnect. A simulated finger without
    /// images is a setup error that reconnecting does not fix.
    /// Refusals (no finger, a poor image, a libfprint failure, a store error) are not losses.
    public func isDeviceLoss(_ error: any Error) -> Bool {
        if let error = error as? HostReaderError { return error == .closed }
        guard let error = error as? ImageSensorError else { return false }
        switch error {
        case .spi, .gpio, .noResetInterrupt, .interruptStuck, .interruptTimeout, .sensorLink:
            return true
        case .wrongHardwareID(let seen, _, _):
            // Nothing drives MISO: the sensor is unplugged or unpowered.
            return seen == 0x0000 || seen == 0xFFFF
        case .unexpectedInterrupt, .sensorError, .noFinger, .noImages, .unreadableImage:
            return false
        }
    }

    /// Lets go of the sensor (its SPI handle and lines close with the last reference).
    public func close() {
        openSensor = nil
        cachedGallery = nil
    }

    /// Builds the gallery now if it is missing or stale. Building reads every template into
    /// cylinders (the slow part of a search), which the next identify or scan would otherwise pay for; the service can call
    /// this while idle, after an enroll or delete, or when it connects.
    public func prepareGallery() throws {
        _ = try currentGallery()
    }

    /// The gallery of everything enrolled, rebuilt when the store's enrolled set changed.
    func currentGallery() throws -> HostGallery {
        if let cachedGallery, try store.enrolledSetDigest() == cachedGallery.digest { return cachedGallery }
        let built = try HostGallery.build(from: store)
        galleryBuilds += 1
        cachedGallery = built
        return built
    }
}
