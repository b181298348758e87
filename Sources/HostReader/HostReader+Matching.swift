import Administration
import FingerprintModule
import FingerprintProtocol
import HostMatching
import Imaging
import Posix
import TemplateStore

/// identify (1:N), verify (1:1) and the service's scan, with the module path's outcomes and
/// audit rows, so the policy, the event log and the history read the same from either kind.
extension HostReader {
    /// What one capture and search gave.
    enum Scan {
        /// The image showed no finger (why, from the coverage check).
        case noFinger(reason: String)
        /// A finger, but too few minutiae to compare.
        case poorImage(ConfirmationCode, reason: String)
        /// The slot and score of the best template the criteria admit (`MatchCriteria`); nil: no match.
        case searched(slot: Int?, score: Int)

        var poorReason: String? {
            switch self {
            case .noFinger(let reason), .poorImage(_, let reason): reason
            case .searched: nil
            }
        }
    }

    /// Waits up to `fingerTimeout`, captures, extracts and searches the cached gallery.
    public func identify() throws -> MatchOutcome {
        _ = try sensor
        let gallery = try currentGallery()
        guard gallery.count > 0 else { return .nothingEnrolled }
        guard try waitForFinger(deadline: ContinuousClock.now + fingerTimeout) else { return .noFinger }
        var timing = IdentifyTiming()
        let scan = try scan(gallery, timing: &timing)
        return try audited(try outcome(of: scan, timing: timing), user: nil, reason: scan.poorReason)
    }

    /// 1:1 against each of the user's fingers (read fresh from the store); the best score wins.
    public func verify(user: String) throws -> MatchOutcome {
        _ = try sensor
        let fingers = try store.fingers(of: user)
        guard !fingers.isEmpty else { throw AdministrationError.noFingersEnrolled(user: user) }
        let gallery = try HostGallery.build(fingers: fingers, store: store)
        guard try waitForFinger(deadline: ContinuousClock.now + fingerTimeout) else { return .noFinger }
        var timing = IdentifyTiming()
        let scan = try scan(gallery, timing: &timing, oneUser: true)
        return try audited(try outcome(of: scan, timing: timing), user: user, reason: scan.poorReason)
    }

    /// One capture and search, no waiting: `.noFinger` at once when the image shows none.
    /// `plan` is a module's search order; the host searches its whole gallery in memory.
    public func scanOnce(plan: SearchPlan?, timing: inout IdentifyTiming) throws -> IdentifyOutcome {
        switch try scan(try currentGallery(), timing: &timing) {
        case .noFinger: return .noFinger
        case .poorImage(let code, _): return .poorImage(code)
        case .searched(let slot?, let score): return .match(slot: slot, score: score)
        case .searched(nil, _): return .noMatch
        }
    }

    /// 1:1 for the door: the user's fingers only, as `verify` compares them (a tie between two
    /// of them is still that user), without waiting for a touch.
    public func scanOnce(verifying user: String, timing: inout IdentifyTiming) throws -> IdentifyOutcome {
        let fingers = try store.fingers(of: user)
        guard !fingers.isEmpty else {
            // Nothing to compare with: the touch is still taken (a capture), and is no match.
            let outcome = try scanOnce(plan: nil, timing: &timing)
            if case .match = outcome { return .noMatch }
            return outcome
        }
        switch try scan(try HostGallery.build(fingers: fingers, store: store), timing: &timing, oneUser: true) {
        case .noFinger: return .noFinger
        case .poorImage(let code, _): return .poorImage(code)
        case .searched(let slot?, let score): return .match(slot: slot, score: score)
        case .searched(nil, _): return .noMatch
        }
    }

    /// Capture (with the coverage check), extraction, search; each stage stamped in `timing`.
    /// `oneUser`: the gallery is one user's fingers (verify), so a tie at the top between two
    /// of them is still that user; across users (1:N) a tie is refused (`MinutiaeMatcher`).
    func scan(_ gallery: HostGallery, timing: inout IdentifyTiming, oneUser: Bool = false) throws -> Scan {
        timing.captureStart = Monotonic.nanoseconds()
        let image: GreyImage
        switch try capture() {
        case .empty(let reason):
            timing.captureEnd = Monotonic.nanoseconds()
            return .noFinger(reason: reason)
        case .finger(let captured):
            image = captured
        }
        timing.captureEnd = Monotonic.nanoseconds()
        let probe: Probe
        do {
            probe = try matcher.probe(image)
        } catch {
            guard case .unusableImage(let reason) = error else { throw error }
            timing.extractEnd = Monotonic.nanoseconds()
            return .poorImage(.featureFail, reason: reason)
        }
        timing.extractEnd = Monotonic.nanoseconds()
        let found: HostMatch?
        found = matcher.identify(probe: probe, gallery: gallery.gallery, criteria: matcher.criteria(for: gallery.gallery), refusingTies: !oneUser)
        timing.searchEnd = Monotonic.nanoseconds()
        return .searched(slot: found.map { gallery.slots[$0.index] }, score: found?.score ?? 0)
    }

    /// The scan as identify/verify report it: they waited for a touch, so an image without a
    /// finger after it is a poor capture ("place it again"), not "nobody came".
    private func outcome(of scan: Scan, timing: IdentifyTiming) throws -> MatchOutcome {
        switch scan {
        case .noFinger: return .poorImage(.imageMessy)
        case .poorImage(let code, _): return .poorImage(code)
        case .searched(let slot?, let score): return try resolve(slot: slot, score: score, times: StageTimes(timing))
        case .searched(nil, _): return .noMatch(times: StageTimes(timing))
        }
    }

    /// Whose finger the slot is; unknown to the store (or its user gone behind the gallery): tamper.
    func resolve(slot: Int, score: Int, times: StageTimes) throws -> MatchOutcome {
        try MatchRecording.resolve(slot: slot, score: score, times: times, in: store)
    }

    /// Writes the outcome's audit row as the module path does. `reason`: why a capture was poor.
    func audited(_ outcome: MatchOutcome, user: String?, reason: String? = nil) throws -> MatchOutcome {
        try MatchRecording.audited(outcome, user: user, matchedBy: "the host matcher", reason: reason, in: store)
    }
}
