import CLibfprint
import Imaging

/// Host-side matching for image sensors: NBIS (mindtct minutiae, bozorth3 scores) as built into
/// libfprint, driven through its virtual_image device in this process.
///
/// Why this and not our own matcher on `fp_image_detect_minutiae`: that public call gives only
/// each minutia's x and y (`fp_minutia_get_coords`); the direction bozorth3 needs is private
/// (struct fp_minutia), so we would have to compute ridge directions from the binarized image
/// and write and tune a matcher of our own, with no track record. The virtual device gives the
/// whole NBIS pipeline as libfprint's USB image sensors use it (the same code Debian ships and
/// tests), at the cost of a debug driver, a Unix socket in a private folder, and GLib's default
/// main context, confined to `LibfprintSession` (see `GLibLoop` for who iterates it). The
/// threshold is libfprint's default, 40, fixed by the driver; identify returns the FIRST
/// gallery template at or above it, in gallery order. The measured error rates and speed are
/// in tools/bench-host-match.sh's output (README, "SPI sensors").
///
/// Speed is this choice's weak side: libfprint rebuilds bozorth3's pair table of each gallery
/// print for every comparison and compares against all 5 enroll images of a template, so a 1:N
/// search runs at tens of templates per second (measured 12–14/s on a loaded 2-core host),
/// fine for a household's fingers, not for hundreds. The way out, if that is needed: keep
/// libfprint for extraction only (the probe print that verify/identify return, and each
/// template, serialize to their x/y/θ minutiae) and match those in Swift with the gallery's
/// tables built once. libfprint's overheating guard (`HostMatchingError.deviceTooHot`) also
/// stops a device kept busy for minutes.
public struct NBISMatcher: Sendable {
    /// bozorth3's score threshold in libfprint's virtual_image driver (its default).
    public static let threshold = 40

    public init() {}

    /// How many images one enrollment takes (libfprint's stages for this device: 5).
    public func enrollStages() throws(HostMatchingError) -> Int {
        try LibfprintSession.with { session in session.enrollStages }
    }

    /// Enrolls one finger from `images`, fed in order until the device has its stages; images
    /// with too few minutiae are skipped. Throws if the images run out first.
    public func enroll(images: [GreyImage]) throws(HostMatchingError) -> HostTemplate {
        try LibfprintSession.with { session throws(HostMatchingError) in try Enrollment(session: session).run(images) }
    }

    /// 1:N: the first template in `gallery` that `image` matches, or nil.
    public func identify(image: GreyImage, gallery: [HostTemplate]) throws(HostMatchingError) -> HostMatch? {
        guard !gallery.isEmpty else { return nil }
        return try LibfprintSession.with { session throws(HostMatchingError) in
            var prints: [OpaquePointer] = []
            defer { for print in prints { g_object_unref(UnsafeMutableRawPointer(print)) } }
            for (index, template) in gallery.enumerated() { prints.append(try session.deserialize(template, index: index)) }
            let array = g_ptr_array_new()!
            defer { g_ptr_array_unref(array) }
            for print in prints { g_ptr_array_add(array, UnsafeMutableRawPointer(print)) }

            try Self.requireFinger(in: image)
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
            guard succeeded else { throw Self.failure(error, operation: "identify") }
            guard let match else { return nil }
            defer { g_object_unref(UnsafeMutableRawPointer(match)) }
            guard let index = prints.firstIndex(of: match) else {
                throw .libfprint(operation: "identify", message: "the match is not one of the gallery's prints")
            }
            return HostMatch(index: index, score: session.scores.collected.last ?? Self.threshold)
        }
    }

    /// 1:1: whether `image` matches `template`, with the best score seen (nil when none was logged).
    public func verify(image: GreyImage, template: HostTemplate) throws(HostMatchingError) -> (matched: Bool, score: Int?) {
        try LibfprintSession.with { session throws(HostMatchingError) in
            let print = try session.deserialize(template, index: 0)
            defer { g_object_unref(UnsafeMutableRawPointer(print)) }
            try Self.requireFinger(in: image)
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
            return (matched != 0, session.scores.collected.max())
        }
    }

    /// An image that shows no finger is never matched (fail closed: an empty sensor, a smear).
    static func requireFinger(in image: GreyImage) throws(HostMatchingError) {
        try LibfprintSession.checkSize(of: image)
        let coverage = FingerCoverage(of: image)
        guard coverage.containsFinger() else {
            let percent = Int((coverage.fraction * 100).rounded())
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
