import FingerprintModule
import FingerprintProtocol
import Foundation
import TemplateStore

/// Where the milliseconds of one match went.
public struct StageTimes: Equatable, Sendable {
    public var captureMilliseconds: Double
    public var extractMilliseconds: Double
    public var searchMilliseconds: Double

    /// The audit log's latency JSON.
    public var json: String {
        func ms(_ value: Double) -> String { String(format: "%.1f", value) }
        return "{\"capture_ms\":\(ms(captureMilliseconds)),\"extract_ms\":\(ms(extractMilliseconds)),\"search_ms\":\(ms(searchMilliseconds))}"
    }

    public init(_ timing: IdentifyTiming) {
        func ms(_ from: UInt64, _ to: UInt64) -> Double { to > from ? Double(to - from) / 1_000_000 : 0 }
        captureMilliseconds = ms(timing.captureStart, timing.captureEnd)
        extractMilliseconds = ms(timing.captureEnd, timing.extractEnd)
        searchMilliseconds = ms(timing.extractEnd, timing.searchEnd)
    }
}

/// A finger the store knows, found by the module.
public struct MatchFound: Equatable, Sendable {
    public var user: String
    public var displayName: String
    public var role: Role
    public var label: String
    public var slot: Int
    public var score: Int
    public var times: StageTimes

    public init(user: String, displayName: String, role: Role, label: String, slot: Int, score: Int, times: StageTimes) {
        self.user = user
        self.displayName = displayName
        self.role = role
        self.label = label
        self.slot = slot
        self.score = score
        self.times = times
    }
}

/// The answer to "whose finger is this?" (1:N) or "is this that user?" (1:1).
public enum MatchOutcome: Equatable, Sendable {
    case match(MatchFound)
    case noMatch(times: StageTimes)
    /// Nobody touched the sensor before the timeout.
    case noFinger
    /// The capture or feature extraction failed; ask for the finger again.
    case poorImage(ConfirmationCode)
    /// The module matched a slot the store does not know: a tamper finding, never a match.
    case tamper(unknownSlot: Int, score: Int)
    /// There is nothing to match against.
    case nothingEnrolled

    /// fprintd-like event name (architecture.md "Events").
    public var event: String {
        switch self {
        case .match: "match"
        case .noMatch: "no-match"
        case .noFinger: "no-finger"
        case .poorImage: "retry-scan"
        case .tamper: "tamper"
        case .nothingEnrolled: "no-enrolled-prints"
        }
    }
}

/// Proof that someone was just verified by their finger: only `identify`/`verify` make one.
public struct Verification: Equatable, Sendable {
    public let user: String
    public let role: Role
    public let slot: Int
    public let at: ContinuousClock.Instant

    public init(_ match: MatchFound) {
        user = match.user
        role = match.role
        slot = match.slot
        at = .now
    }
}

extension Administrator {
    /// 1:N over the occupied slots, in the search order `searchOrderMode` allows (regulars
    /// first once the audit log has enough history; `lastSearchOrder` says what was used).
    /// Polls for a finger until `fingerTimeout`.
    public func identify() throws -> MatchOutcome {
        let table = try module.readIndexTable()
        guard table.occupiedRange != nil else { return .nothingEnrolled }
        let order = try searchOrder(configured: searchOrderMode, cost: searchCost)
        lastSearchOrder = order
        let deadline = ContinuousClock.now + fingerTimeout
        while true {
            var timing = IdentifyTiming()
            let polled = ContinuousClock.now
            let outcome = try module.identify(plan: order.plan, timing: &timing)
            switch outcome {
            case .noFinger:
                if ContinuousClock.now >= deadline { return .noFinger }
                try pause(after: polled)
                continue
            case .poorImage(let code):
                return try audited(.poorImage(code))
            case .noMatch:
                return try audited(.noMatch(times: StageTimes(timing)))
            case .match(let slot, let score):
                return try audited(try resolve(slot: slot, score: score, times: StageTimes(timing)))
            }
        }
    }

    /// 1:1 against each of the user's fingers: one capture, then Search with start = slot and
    /// count = 1 per finger (works on every family; no GenImg in between). The best score wins.
    public func verify(user: String) throws -> MatchOutcome {
        let fingers = try store.fingers(of: user)
        guard !fingers.isEmpty else { throw AdministrationError.noFingersEnrolled(user: user) }
        var timing = IdentifyTiming()
        let deadline = ContinuousClock.now + fingerTimeout
        while true {
            let polled = ContinuousClock.now
            timing.captureStart = Self.now()
            if case .captured = try module.captureImage() { break }
            if ContinuousClock.now >= deadline { return .noFinger }
            try pause(after: polled)
        }
        timing.captureEnd = Self.now()
        switch try module.extractFeatures(buffer: CharBuffer.one) {
        case .ok: break
        case .poorImage(let code): return try audited(.poorImage(code), user: user)
        case .noImage: return try audited(.poorImage(.invalidImage), user: user)
        }
        timing.extractEnd = Self.now()
        var best: SearchHit?
        for finger in fingers {
            if case .found(let hit) = try module.search(buffer: CharBuffer.one, range: finger.slot..<(finger.slot + 1)),
               hit.score > (best?.score ?? -1) {
                best = hit
            }
        }
        timing.searchEnd = Self.now()
        let times = StageTimes(timing)
        guard let best else { return try audited(.noMatch(times: times), user: user) }
        return try audited(try resolve(slot: best.slot, score: best.score, times: times), user: user)
    }

    /// Turns a module slot into a person, or into a tamper finding.
    func resolve(slot: Int, score: Int, times: StageTimes) throws -> MatchOutcome {
        try MatchRecording.resolve(slot: slot, score: score, times: times, in: store)
    }

    /// Writes the outcome's audit row and returns it.
    func audited(_ outcome: MatchOutcome, user: String? = nil) throws -> MatchOutcome {
        try MatchRecording.audited(outcome, user: user, matchedBy: "the module", in: store)
    }

    /// Monotonic nanoseconds, as `IdentifyTiming` stamps them.
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
