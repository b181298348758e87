import CLibfprint
import Imaging

/// One enrollment on the virtual device: images go in one at a time, each only after the
/// device reported on the previous one (it reads the socket as soon as it can, and a second
/// image arriving while the first is still being analysed trips an assertion in libfprint).
struct Enrollment {
    let session: LibfprintSession
    var checksCoverage = true

    /// What the progress callback saw: how many stages are done, and how many reports came.
    final class Progress {
        var completedStages = 0
        var reports = 0
        var lastWasRetry = false
    }

    func run(_ images: [GreyImage]) throws(HostMatchingError) -> HostTemplate {
        let progress = Progress()
        let outcome = AsyncOutcome()
        let (ready, userData) = outcome.callback()
        let onProgress: FpEnrollProgress = { _, completed, _, userData, error in
            let progress = Unmanaged<Progress>.fromOpaque(userData!).takeUnretainedValue()
            progress.completedStages = Int(completed)
            progress.reports += 1
            progress.lastWasRetry = error != nil
        }
        let progressData = Unmanaged.passRetained(progress)
        let release: GDestroyNotify = { Unmanaged<Progress>.fromOpaque($0!).release() }
        let cancellable = g_cancellable_new()
        defer { g_object_unref(UnsafeMutableRawPointer(cancellable)) }

        // A new, floating print: the device sinks it and fills it in.
        fp_device_enroll(session.device, fp_print_new(session.device), cancellable,
                         onProgress, progressData.toOpaque(), release, ready, userData)
        var rejected: [Int] = []
        for (index, image) in images.enumerated() where !outcome.isFinished {
            // No finger, no minutiae worth keeping: skipped without bothering the device.
            guard !checksCoverage || FingerCoverage().evaluate(image).holdsFinger else {
                rejected.append(index)
                continue
            }
            let reportsBefore = progress.reports
            try session.send(image)
            try GLibLoop.run("enroll", seconds: LibfprintSession.operationSeconds) {
                progress.reports > reportsBefore || outcome.isFinished
            }
            if progress.lastWasRetry { rejected.append(index) }
            // The device moves on to "await the next finger" in sources queued after the
            // report; run them before the next image arrives, or libfprint finds the image in
            // the wrong state.
            while GLibLoop.runPending() {}
        }
        if !outcome.isFinished {
            g_cancellable_cancel(cancellable)
            try GLibLoop.run("cancel an enrollment", seconds: LibfprintSession.operationSeconds) { outcome.isFinished }
            var ignored: UnsafeMutablePointer<GError>?
            if let print = fp_device_enroll_finish(session.device, outcome.result, &ignored) {
                g_object_unref(UnsafeMutableRawPointer(print))
            }
            _ = consume(ignored)
            throw .notEnoughUsableImages(needed: session.enrollStages, accepted: progress.completedStages, rejectedIndices: rejected)
        }
        var error: UnsafeMutablePointer<GError>?
        guard let print = fp_device_enroll_finish(session.device, outcome.result, &error) else {
            throw NBISMatcher.failure(error, operation: "enroll")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(print)) }
        return try session.serialize(print)
    }
}
