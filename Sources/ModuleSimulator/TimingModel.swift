import FingerprintProtocol

/// How fast the simulated module answers.
public enum TimingMode: String, Sendable, CaseIterable {
    /// Replies as soon as they are computed, no wire pacing: for tests.
    case instant
    /// No module processing time, but replies are paced at the client's baud rate.
    case wire
    /// Per-instruction durations from the datasheets (protocol.md §7) plus wire pacing.
    case datasheet

    /// Replies are emitted at `bytes × 10 / baud`.
    public var pacesWire: Bool { self != .instant }
}

/// What a command's duration depends on besides the command itself.
public struct TimingState: Sendable, Equatable {
    /// A finger is on the sensor (GenImg takes the full capture time instead of a quick "no finger").
    public var fingerPresent: Bool
    /// Templates a Search actually compares (occupied slots in the requested range).
    public var templatesSearched: Int

    public init(fingerPresent: Bool = true, templatesSearched: Int = 0) {
        self.fingerPresent = fingerPresent
        self.templatesSearched = templatesSearched
    }
}

/// Module processing time per instruction. Pure, so `fpmod bench` can compute the floor a real
/// module imposes and compare it with what it measures. Wire time is separate (`WireTime`).
public struct TimingModel: Sendable, Equatable {
    public var profile: SimulatorProfile
    public var mode: TimingMode

    public init(profile: SimulatorProfile, mode: TimingMode) {
        self.profile = profile
        self.mode = mode
    }

    /// Time between the last byte of `command` arriving and the first byte of its ack leaving.
    public func moduleDuration(for command: Command, state: TimingState) -> Duration {
        guard mode == .datasheet else { return .zero }
        switch command.instruction.rawValue {
        case 0x01, 0x28, 0x52:
            return captureDuration(fingerPresent: state.fingerPresent)
        case 0x02: return .milliseconds(profile.extractMilliseconds)
        case 0x03: return .milliseconds(15)
        case 0x04, 0x1B, 0x56: return searchDuration(templates: state.templatesSearched)
        case 0x05: return .milliseconds(60)
        case 0x06, 0x0C, 0x0D, 0x0E, 0x12, 0x15, 0x18:
            return .milliseconds(profile.flashWriteMilliseconds)
        case 0x07: return .milliseconds(10)
        case 0x0A: return .milliseconds(5)
        case 0x55:
            return captureDuration(fingerPresent: state.fingerPresent)
                + (state.fingerPresent ? .milliseconds(profile.extractMilliseconds) + searchDuration(templates: state.templatesSearched) : .zero)
        default: return .milliseconds(1)
        }
    }

    public func captureDuration(fingerPresent: Bool) -> Duration {
        guard mode == .datasheet else { return .zero }
        // Without a finger the sensor gives up after a short scan.
        return .milliseconds(fingerPresent ? profile.captureMilliseconds : 40)
    }

    public func extractDuration() -> Duration {
        mode == .datasheet ? .milliseconds(profile.extractMilliseconds) : .zero
    }

    public func searchDuration(templates: Int) -> Duration {
        guard mode == .datasheet else { return .zero }
        return .milliseconds(profile.searchBaseMilliseconds) + .microseconds(profile.searchMicrosecondsPerTemplate * templates)
    }

    public func flashWriteDuration() -> Duration {
        mode == .datasheet ? .milliseconds(profile.flashWriteMilliseconds) : .zero
    }

    /// Power-on (or SoftRst) to the boot byte `55`.
    public func bootDuration() -> Duration {
        mode == .datasheet ? .milliseconds(profile.bootMilliseconds) : .zero
    }

    /// Wire time of `bytes` at `baudRate` (8N1: 10 bits per byte); zero when not pacing.
    public func wireDuration(bytes: Int, baudRate: Int) -> Duration {
        guard mode.pacesWire, baudRate > 0 else { return .zero }
        return .nanoseconds(Int64(WireTime.nanoseconds(bytes: bytes, baudRate: baudRate)))
    }
}
