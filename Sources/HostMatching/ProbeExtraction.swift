import CLibfprint
import Imaging

extension LibfprintSession {
    /// The minutiae NBIS finds in one image, through the device, comparing against nothing.
    ///
    /// How: an identify against an empty gallery. The image device extracts the probe's
    /// minutiae, builds its print, loops over zero templates and reports "no match" with the
    /// probe print attached; we serialize that and read its one image back. Cheaper than
    /// verify, which would also run bozorth3 once; and `fp_image_detect_minutiae` on a
    /// captured image gives positions but not the directions a matcher needs.
    func probeMinutiae(_ image: GreyImage) throws(HostMatchingError) -> [Minutia] {
        let empty = g_ptr_array_new()!
        defer { g_ptr_array_unref(empty) }
        try send(image)
        let outcome = AsyncOutcome()
        let (ready, userData) = outcome.callback()
        fp_device_identify(device, empty, nil, nil, nil, nil, ready, userData)
        try GLibLoop.run("extract minutiae", seconds: Self.operationSeconds) { outcome.isFinished }

        var match: OpaquePointer?
        var probe: OpaquePointer?
        var error: UnsafeMutablePointer<GError>?
        let succeeded = fp_device_identify_finish(device, outcome.result, &match, &probe, &error) != 0
        if let match { g_object_unref(UnsafeMutableRawPointer(match)) }
        defer { if let probe { g_object_unref(UnsafeMutableRawPointer(probe)) } }
        guard succeeded else { throw NBISMatcher.failure(error, operation: "extract minutiae") }
        guard let probe else { throw .libfprint(operation: "extract minutiae", message: "the device returned no probe print") }
        let template = try serialize(probe)
        let images = try MinutiaeReader.minutiae(of: template, index: 0)
        guard images.count == 1 else {
            throw .libfprint(operation: "extract minutiae", message: "the probe print holds \(images.count) images, not 1")
        }
        return images[0]
    }
}
