import FingerprintProtocol
import Posix

/// The door loop's one question, as fast as the module allows.
extension FingerprintModule {
    /// GenImg → Img2Tz(1) → Search(1, range) with nothing in between (R503 wipes its feature
    /// buffer on GenImg, protocol.md §9 #9). `range` defaults to the occupied range of the
    /// cached index (read it once with `readIndexTable()`), else the whole capacity.
    /// `timing` receives a timestamp per stage.
    public func identify(range: Range<Int>? = nil, timing: inout IdentifyTiming) throws(ModuleError) -> IdentifyOutcome {
        let range = if let range { range } else { try defaultSearchRange() }
        return try identify(plan: .whole(range), timing: &timing)
    }

    /// Capture and extract once, then Search each range of `plan` in order on the same feature
    /// buffer, stopping at the first match (no GenImg in between, so R503 keeps its features).
    /// A plan with nothing to search answers `.noMatch` after the capture, as an empty range
    /// would. `timing.searchEnd` is stamped after the last Search that ran.
    public func identify(plan: SearchPlan, timing: inout IdentifyTiming) throws(ModuleError) -> IdentifyOutcome {
        timing = IdentifyTiming()
        timing.captureStart = Monotonic.nanoseconds()
        switch try repeatingOnceIfDamaged({ () throws(ModuleError) in try captureImage() }) {
        case .noFinger: return .noFinger
        case let .failed(code): return .poorImage(code)
        case .captured: break
        }
        timing.captureEnd = Monotonic.nanoseconds()
        switch try repeatingOnceIfDamaged({ () throws(ModuleError) in try extractFeatures(buffer: CharBuffer.one) }) {
        case let .poorImage(code): return .poorImage(code)
        case .noImage: return .poorImage(.invalidImage)
        case .ok: break
        }
        timing.extractEnd = Monotonic.nanoseconds()
        defer { timing.searchEnd = Monotonic.nanoseconds() }
        for range in plan.searchedRanges {
            let result: SearchResult
            do {
                result = try search(buffer: CharBuffer.one, range: range)
            } catch let error where error.confirmationCode == .residualFingerprint {
                // SynoChip 0x17: the finger was not moved since the last capture — lift and re-place.
                return .poorImage(.residualFingerprint)
            }
            if case let .found(hit) = result { return .match(slot: hit.slot, score: hit.score) }
        }
        return .noMatch
    }

    /// GenImg and Img2Tz are not idempotent in general (an enrollment counts its captures), so
    /// the exchange does not retry them. Inside identify it is safe: a second capture replaces
    /// the image, a second extraction rewrites buffer 1 from the same image. So a damaged or
    /// lost reply (the exchange resyncs on the next command) repeats the step once, as Search is.
    private func repeatingOnceIfDamaged<T>(_ step: () throws(ModuleError) -> T) throws(ModuleError) -> T {
        do { return try step() } catch where error.isWorthRetrying {
            return try step()
        }
    }

    /// `identify(range:timing:)` without the timestamps.
    public func identify(range: Range<Int>? = nil) throws(ModuleError) -> IdentifyOutcome {
        var timing = IdentifyTiming()
        return try identify(range: range, timing: &timing)
    }
}
