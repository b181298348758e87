import CLibfprint
import MinutiaeExtraction
import Imaging

/// NIST's NBIS (mindtct minutiae, bozorth3 scores) as built into libfprint, driven through
/// its virtual_image device in this process: the baseline fpmod's own matcher
/// (`MinutiaeMatcher`) is measured against, side by side, by `fpmod bench accuracy`
/// (docs/accuracy.md). Not used by the reader or the service.
///
/// The virtual device gives the whole NBIS pipeline as libfprint's USB image sensors use it
/// (the same code Debian ships and tests), at the cost of a debug driver, a Unix socket in a
/// private folder, and GLib's default main context, confined to `LibfprintSession` (see
/// `GLibLoop` for who iterates it). The threshold is libfprint's default, 40, fixed by the
/// driver (a stricter one can be laid on top, see `threshold`); identify returns the FIRST
/// gallery template that passes, in gallery order. Its templates are format 1 (a libfprint
/// print in `TemplateEnvelope`). libfprint's overheating guard
/// (`HostMatchingError.deviceTooHot`) stops a device kept busy for minutes.
public struct NBISMatcher: Sendable {
    /// bozorth3's score threshold in libfprint's virtual_image driver (its default, fixed there).
    public static let libfprintThreshold = 40

    /// The score a match needs: libfprint's threshold or stricter. A stricter one applies to
    /// the score on which libfprint stopped (the first enroll image at or above 40), so it only
    /// ever turns libfprint's matches into non-matches: never a false match more.
    public let threshold: Int

    /// Whether an image must show ridges over half its area (a sensor's window, where less is a
    /// finger barely touching); off for whole scanned prints with white margins.
    public var checksCoverage = true

    public init(threshold: Int = NBISMatcher.libfprintThreshold) {
        self.threshold = max(threshold, Self.libfprintThreshold)
    }

    /// How many images one enrollment takes (libfprint's stages for this device: 5).
    public func enrollStages() throws(HostMatchingError) -> Int {
        try LibfprintSession.with { session in session.enrollStages }
    }

    /// Enrolls one finger from `images`, fed in order until the device has its stages; images
    /// without a finger or with too few minutiae are skipped. Throws if the images run out first.
    public func enroll(images: [GreyImage]) throws(HostMatchingError) -> HostTemplate {
        let checksCoverage = self.checksCoverage
        return try LibfprintSession.with { session throws(HostMatchingError) in
            try Enrollment(session: session, checksCoverage: checksCoverage).run(images)
        }
    }

    /// 1:N: the first template in `gallery` that `image` matches at `threshold`, or nil.
    public func identify(image: GreyImage, gallery: [HostTemplate]) throws(HostMatchingError) -> HostMatch? {
        guard !gallery.isEmpty else { return nil }
        try requireFinger(in: image)
        let threshold = self.threshold
        return try LibfprintSession.with { session throws(HostMatchingError) in
            var prints: [OpaquePointer] = []
            defer { for print in prints { g_object_unref(UnsafeMutableRawPointer(print)) } }
            for (index, template) in gallery.enumerated() { prints.append(try session.deserialize(template, index: index)) }
            // libfprint stops at the first template at or above its own threshold; one below
            // ours is left out and the rest searched again (rare: it takes a near miss).
            var candidates = Array(prints.indices)
            while !candidates.isEmpty {
                guard let (position, score) = try Self.identifyOnce(image, among: candidates.map { prints[$0] }, session: session) else {
                    return nil
                }
                if let score, score >= threshold { return HostMatch(index: candidates[position], score: score) }
                if score == nil && threshold == Self.libfprintThreshold {
                    return HostMatch(index: candidates[position], score: threshold)  // a libfprint that logs no scores
                }
                candidates.remove(at: position)
            }
            return nil
        }
    }

    /// 1:1: whether `image` matches `template` at `threshold`; the score is the one libfprint
    /// stopped on when it matched, else the best it saw (nil when none was logged).
    public func verify(image: GreyImage, template: HostTemplate) throws(HostMatchingError) -> (matched: Bool, score: Int?) {
        try requireFinger(in: image)
        let threshold = self.threshold
        return try LibfprintSession.with { session throws(HostMatchingError) in
            let print = try session.deserialize(template, index: 0)
            defer { g_object_unref(UnsafeMutableRawPointer(print)) }
            session.scores.reset()
            try session.send(image)
            let outcome = AsyncOutcome()
            let (ready, userData) = outcome.callback()
            fp_device_verify(session.device, print, nil, nil, nil, nil, ready, userData)
            try GLibLoop.run("verify", seconds: LibfprintSession.operationSeconds) { outcome.isFinished }

            var matched: gboolean = 0
            var probe: OpaquePointer?
            var error: UnsafeMutablePointer<GError>?
            let succeeded = fp_device_verify_finish(session.device, outcome.result, &matched, &probe, &error) != 0
            if let probe { g_object_unref(UnsafeMutableRawPointer(probe)) }
            guard succeeded else { throw Self.failure(error, operation: "verify") }
            guard matched != 0 else { return (false, session.scores.collected.max()) }
            let score = session.scores.collected.last
            let strictEnough = score.map { $0 >= threshold } ?? (threshold == Self.libfprintThreshold)
            return (strictEnough, score)
        }
    }

    /// One identify on the device: the position in `prints` of the match and its score.
    private static func identifyOnce(
        _ image: GreyImage, among prints: [OpaquePointer], session: LibfprintSession
    ) throws(HostMatchingError) -> (Int, Int?)? {
        let array = g_ptr_array_new()!
        defer { g_ptr_array_unref(array) }
        for print in prints { g_ptr_array_add(array, UnsafeMutableRawPointer(print)) }

        session.scores.reset()
        try session.send(image)
        let outcome = AsyncOutcome()
        let (ready, userData) = outcome.callback()
        fp_device_identify(session.device, array, nil, nil, nil, nil, ready, userData)
        try GLibLoop.run("identify", seconds: LibfprintSession.operationSeconds) { outcome.isFinished }

        var match: OpaquePointer?
        var probe: OpaquePointer?
        var error: UnsafeMutablePointer<GError>?
        let succeeded = fp_device_identify_finish(session.device, outcome.result, &match, &probe, &error) != 0
        if let probe { g_object_unref(UnsafeMutableRawPointer(probe)) }
        guard succeeded else { throw failure(error, operation: "identify") }
        guard let match else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(match)) }
        guard let position = prints.firstIndex(of: match) else {
            throw .libfprint(operation: "identify", message: "the match is not one of the gallery's prints")
        }
        return (position, session.scores.collected.last)
    }

    /// An image that shows no finger is never matched (fail closed: an empty sensor, a smear).
    func requireFinger(in image: GreyImage) throws(HostMatchingError) {
        try LibfprintSession.checkSize(of: image)
        guard checksCoverage else { return }
        let coverage = FingerCoverage().evaluate(image)
        guard coverage.holdsFinger else {
            let percent = Int((coverage.coverage * 100).rounded())
            throw .unusableImage(reason: "only \(percent)% of the image shows ridges, it needs half")
        }
    }

    /// A retry error (too few minutiae, a partial image) is the image's fault; others are libfprint's.
    static func failure(_ error: UnsafeMutablePointer<GError>?, operation: String) -> HostMatchingError {
        let isRetry = error.map { $0.pointee.domain == fp_device_retry_quark() } ?? false
        let isTooHot = error.map {
            $0.pointee.domain == fp_device_error_quark() && $0.pointee.code == Int32(FPMOD_FP_DEVICE_ERROR_TOO_HOT)
        } ?? false
        let message = consume(error)
        if isTooHot { return .deviceTooHot }
        return isRetry ? .unusableImage(reason: message) : .libfprint(operation: operation, message: message)
    }
}

extension NBISMatcher {
    /// The minutiae mindtct finds in `image`, in fpmod's convention (`RidgeMinutia`: y down,
    /// radians), for comparing extractors under one comparison (`HostMatchBench extractors`).
    public func minutiae(in image: GreyImage) throws(HostMatchingError) -> [RidgeMinutia] {
        try LibfprintSession.with { session throws(HostMatchingError) in try session.probeMinutiae(image) }
            .map { $0.inImage(height: image.height) }
    }
}

extension Minutia {
    /// NIST's row (y up, θ counter-clockwise in degrees) as fpmod's: y down, the angle from +x
    /// towards +y. NBIS gives no kind and no quality: every one is an ending of middling quality.
    func inImage(height: Int) -> RidgeMinutia {
        var angle = -Float(theta) * .pi / 180
        while angle < 0 { angle += 2 * .pi }
        while angle >= 2 * .pi { angle -= 2 * .pi }
        return RidgeMinutia(x: Float(x), y: Float(height - 1) - Float(y), angle: angle, kind: .ending, quality: 0.5)
    }
}
