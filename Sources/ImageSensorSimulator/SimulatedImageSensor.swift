import Foundation
import ImageSensor
import Imaging

/// An FPC1020-sized image sensor without hardware: 192×192 at 508 dpi, serving PNG files from
/// a folder per finger or generated fingers. Tests, `fpmod --sim --sim-profile fpc1020` and
/// `fpmod sim --profile fpc1020` put fingers on it with `place`/`lift`/`touch`, as they do on
/// the simulated module.
///
/// Thread-safe: one `NSCondition` guards every variable (hence `@unchecked Sendable`), and
/// `waitForFinger` sleeps on it until a finger goes down or the deadline passes, never spinning.
public final class SimulatedImageSensor: ImageSensor, @unchecked Sendable {
    public let identity: SensorIdentity
    let source: FingerImages

    private let condition = NSCondition()
    // Everything below is read and written only while `condition` is locked.
    private var finger: String?
    /// The finger was put down by `touch` (or `autoTouch`): it lifts after the next capture.
    private var liftsAfterCapture = false
    private var automaticFinger: String?
    private var captureCounts: [String: Int] = [:]
    private var captures = 0
    private var masters: [String: GreyImage] = [:]
    private var presenceObservers: [@Sendable (Bool) -> Void] = []

    /// `imagesDirectory`: captures of finger NAME come from DIR/NAME/*.png (8-bit grey or any
    /// PNG libpng reads, any size: cropped or scaled to 192×192), the next file per capture in
    /// name order, cycling. nil: generated fingers, named by a stable hash of the finger's name
    /// mixed with `seed`, a different impression (turn, shift, noise) per capture.
    /// Throws `.noImages` when `imagesDirectory` is no readable folder.
    public init(imagesDirectory: String? = nil, seed: UInt64 = 1) throws(ImageSensorError) {
        let connection: String
        if let directory = imagesDirectory {
            guard let stream = opendir(directory) else { throw .noImages(folder: directory) }
            closedir(stream)
            source = .directory(directory)
            connection = "simulation (images from \(directory))"
        } else {
            source = .synthetic(seed: seed)
            connection = "simulation (generated fingers, seed \(seed))"
        }
        identity = SensorIdentity(model: "FPC1020A (simulated)", hardwareID: nil, width: FingerImages.side,
                                  height: FingerImages.side, dotsPerInch: 508, connection: connection)
    }

    // MARK: Fingers

    /// Puts `finger` on the sensor until `lift()`; every capture shows it.
    public func place(_ finger: String) { setFinger(finger, liftsAfterCapture: false) }

    public func lift() { setFinger(nil, liftsAfterCapture: false) }

    /// Puts `finger` down for one capture: it lifts by itself right after the next capture.
    public func touch(_ finger: String) { setFinger(finger, liftsAfterCapture: true) }

    /// For commands without anyone at the sensor: when set, every `waitForFinger` without a
    /// finger down touches this finger at once, so "lift and place again" and identify just work.
    public var autoTouch: String? {
        get { locked { automaticFinger } }
        set {
            locked {
                automaticFinger = newValue
                // A wait in progress touches it now rather than at its deadline.
                condition.broadcast()
            }
        }
    }

    /// `observer` hears every change of "a finger is down" (true) or up (false), on the thread
    /// that made it, outside the lock; it is called once at once with the current state (so a
    /// simulated touch line starts right). Observers add up (a touch line and a sensor link).
    public func observeFingerPresence(_ observer: @escaping @Sendable (Bool) -> Void) {
        let present = locked { () -> Bool in
            presenceObservers.append(observer)
            return finger != nil
        }
        observer(present)
    }

    /// What the control socket's `status` reports.
    public var status: SimulatedSensorStatus {
        locked {
            SimulatedSensorStatus(model: identity.model, connection: identity.connection, finger: finger,
                                  liftsAfterCapture: liftsAfterCapture, autoTouch: automaticFinger, captures: captures)
        }
    }

    // MARK: ImageSensor

    public func reset() throws(ImageSensorError) {}

    public func waitForFinger(deadline: ContinuousClock.Instant) throws(ImageSensorError) -> Bool {
        condition.lock()
        while finger == nil {
            if let automatic = automaticFinger {
                finger = automatic
                liftsAfterCapture = true
                let observers = presenceObservers
                condition.unlock()
                for observer in observers { observer(true) }
                return true
            }
            let remaining = ContinuousClock.now.duration(to: deadline)
            guard remaining > .zero else {
                condition.unlock()
                return false
            }
            let (seconds, attoseconds) = remaining.components
            _ = condition.wait(until: Date(timeIntervalSinceNow: Double(seconds) + Double(attoseconds) / 1e18))
        }
        condition.unlock()
        return true
    }

    /// The finger that is down, as the next impression of it; a blank image without one. A
    /// touched finger lifts afterwards, even when its image could not be read.
    public func capture() throws(ImageSensorError) -> SensorImage {
        let (name, index, cached, lifted, observers) = locked { () -> (String?, Int, GreyImage?, Bool, [@Sendable (Bool) -> Void]) in
            captures += 1
            guard let name = finger else { return (nil, 0, nil, false, []) }
            let index = captureCounts[name, default: 0]
            captureCounts[name] = index + 1
            let lifts = liftsAfterCapture
            if lifts {
                finger = nil
                liftsAfterCapture = false
            }
            return (name, index, masters[name], lifts, presenceObservers)
        }
        if lifted { for observer in observers { observer(false) } }
        guard let name else { return FingerImages.blank }
        // Rendering and file reads happen outside the lock, so `lift` never waits for them.
        var cache: [String: GreyImage] = cached.map { [name: $0] } ?? [:]
        let image = try source.image(of: name, index: index, masters: &cache)
        if cached == nil, let master = cache[name] { locked { masters[name] = master } }
        return image
    }

    // MARK: Inside

    private func setFinger(_ newFinger: String?, liftsAfterCapture lifts: Bool) {
        let (changed, observers) = locked { () -> (Bool, [@Sendable (Bool) -> Void]) in
            let wasDown = finger != nil
            finger = newFinger
            liftsAfterCapture = newFinger != nil && lifts
            condition.broadcast()
            return (wasDown != (newFinger != nil), presenceObservers)
        }
        if changed { for observer in observers { observer(newFinger != nil) } }
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }
}
