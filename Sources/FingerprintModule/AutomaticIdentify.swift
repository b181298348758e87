import FingerprintProtocol
import Posix

/// How `identify` asks the module whose finger it is.
public enum IdentifyMethod: String, Sendable, CaseIterable {
    /// GenImg → Img2Tz → Search: three commands, every module has them.
    case threeCommands = "three-commands"
    /// One command that captures, extracts and searches: Grow R50x AutoIdentify (32, one-byte
    /// range) or AS608 AutoSearch (55, two-byte range). Other families have none.
    case automatic = "auto-identify"

    /// What identify uses unless told otherwise: the three-command cycle everywhere. On the
    /// simulator the one command saves only the wire time of the acks it does not send (about
    /// 5–6 ms of a 1 s identify, docs/performance.md), and on both families it does not report
    /// the same outcomes (`knownDifferences`): the rule is to switch only where it is faster
    /// *and* reports the same.
    public static func preferred(for family: ModuleFamily?) -> IdentifyMethod { .threeCommands }

    /// Where the one-command identify answers differently from GenImg → Img2Tz → Search, from
    /// the manuals (protocol.md §2.3, §3) — the simulator cannot show what it does not model.
    public static func knownDifferences(on family: ModuleFamily?) -> [String] {
        switch family {
        case .r50x?:
            ["with no finger it waits up to 10 s for one instead of answering 02 at once",
             "a poor image is retried inside the module (tolerated failed attempts); what it then answers is undocumented"]
        case .as608?:
            ["AutoSearch answers 22 (residual fingerprint) for a finger not lifted since the last capture, where Search matches it"]
        default: []
        }
    }

    /// True when `family` has a one-command identify this driver can use.
    public static func automaticIsAvailable(on family: ModuleFamily?) -> Bool {
        family == .r50x || family == .as608
    }
}

extension FingerprintModule {
    /// Identify with the module's own one-command cycle (see `IdentifyMethod.automatic`),
    /// mapped to the same outcomes as `identify(range:timing:)`. Only `captureStart` and
    /// `searchEnd` of `timing` are set: the stages happen inside the module. R50x searches at
    /// most slots 0…254 (one-byte start and count): a wider range is refused, not cut.
    public func identifyAutomatically(range: Range<Int>? = nil, timing: inout IdentifyTiming) throws(ModuleError) -> IdentifyOutcome {
        timing = IdentifyTiming()
        let range = if let range { range } else { try defaultSearchRange() }
        timing.captureStart = Monotonic.nanoseconds()
        defer { timing.searchEnd = Monotonic.nanoseconds() }
        let result: SearchResult
        do throws(ModuleError) {
            switch family {
            case .r50x?:
                result = try autoIdentify(range: range, attempts: 0, reportSteps: false)
            case .as608?:
                result = try autoSearch(range: range)
            default:
                throw ModuleError.unsupported(.autoIdentify, family)
            }
        } catch {
            guard let code = error.confirmationCode else { throw error }
            switch code.rawValue {
            // No finger (AS608), or the R50x's 10 s wait for one ran out (26).
            case 0x02, 0x26: return .noFinger
            // R50x: an empty library (24) is no match, as it is for Search.
            case 0x24 where family == .r50x: return .noMatch
            case 0x03, 0x04, 0x05, 0x06, 0x07, 0x15, 0x17: return .poorImage(code)
            // AS608: residual fingerprint (finger not lifted since the last capture).
            case 0x22 where family == .as608: return .poorImage(code)
            default: throw error
            }
        }
        switch result {
        case let .found(hit):
            // Fail closed: a slot outside the range asked for answers nothing (as for Search).
            guard range.contains(hit.slot) else {
                throw .unexpectedPacket(.autoIdentify, "a hit at slot \(hit.slot), outside the range searched \(range)")
            }
            return .match(slot: hit.slot, score: hit.score)
        case .notFound: return .noMatch
        }
    }

    /// `identifyAutomatically(range:timing:)` without the timestamps.
    public func identifyAutomatically(range: Range<Int>? = nil) throws(ModuleError) -> IdentifyOutcome {
        var timing = IdentifyTiming()
        return try identifyAutomatically(range: range, timing: &timing)
    }

    /// AS608 AutoSearch (55): capture, extract and search `range` in one command; the module
    /// waits `wait` × ~65 ms for a finger (protocol.md §2.2).
    public func autoSearch(range: Range<Int>, wait: UInt8 = 1) throws(ModuleError) -> SearchResult {
        guard family == .as608 else { throw .unsupported(.autoSearch, family) }
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= 0xFFFF else {
            throw .invalidArgument("An AutoSearch covers one or more slots within 0 to 65535; it was asked for \(SlotText.of(range)).")
        }
        let ack = try perform(.autoSearch(wait: wait, start: range.lowerBound, count: range.count))
        if ack.code == .notFound { return .notFound }
        guard ack.code == .success else { throw moduleError(.autoSearch, ack.code) }
        do { return .found(try SearchHit(payload: ack.payload)) } catch {
            throw .unexpectedPacket(.autoSearch, error.description)
        }
    }
}
