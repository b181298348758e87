/// A finger on the sensor for one or more captures.
public struct Placement: Equatable, Sendable {
    public var finger: VirtualFinger
    public var quality: CaptureQuality

    public init(finger: VirtualFinger, quality: CaptureQuality = .good) {
        self.finger = finger
        self.quality = quality
    }

    public init(name: String, quality: CaptureQuality = .good) {
        self.init(finger: VirtualFinger(name: name), quality: quality)
    }
}

/// What is touching the sensor. `place` keeps a finger there until `lift`; `touch` scripts N
/// presses where each press lasts exactly one capture and the next press comes only after the
/// host has seen the finger gone (a capture that found no finger) — so a scripted enrollment
/// (capture, wait for lift, capture) needs no timing at all.
public struct Sensor: Equatable, Sendable {
    public private(set) var held: Placement?
    public private(set) var script: TouchScript?

    public struct TouchScript: Equatable, Sendable {
        public var placement: Placement
        /// Presses not yet captured.
        public var remaining: Int
        /// The finger was captured and is now off the sensor; the host has not looked yet.
        public var lifted: Bool
    }

    public init() {}

    public mutating func place(_ placement: Placement) {
        held = placement
        script = nil
    }

    public mutating func touch(_ placement: Placement, times: Int) {
        held = nil
        script = times > 0 ? TouchScript(placement: placement, remaining: times, lifted: false) : nil
    }

    public mutating func lift() {
        held = nil
        script = nil
    }

    /// Is something on the sensor right now (without consuming a press)?
    public var fingerPresent: Bool {
        if held != nil { return true }
        if let script { return !script.lifted && script.remaining > 0 }
        return false
    }

    /// One capture attempt: the finger seen, or nil ("no finger"), advancing a touch script.
    public mutating func capture() -> Placement? {
        if let held { return held }
        guard var current = script else { return nil }
        if current.lifted {
            // The host has now seen the finger gone; the next press may come.
            current.lifted = false
            script = current.remaining > 0 ? current : nil
            return nil
        }
        current.remaining -= 1
        current.lifted = true
        script = current
        return current.placement
    }

    /// Short human-readable state for `status`.
    public var summary: String {
        if let held { return "\(held.finger.name)\(held.quality == .good ? "" : " (\(held.quality.rawValue))")" }
        if let script { return "touch \(script.placement.finger.name) ×\(script.remaining)\(script.lifted ? " (lifted)" : "")" }
        return "none"
    }
}
