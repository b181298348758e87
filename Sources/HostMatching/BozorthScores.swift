import CLibfprint

/// The bozorth3 scores libfprint computes while matching, read from its debug log.
///
/// libfprint keeps the score to itself: verify and identify report only "matched or not" against
/// the driver's threshold. Each comparison logs `score S/T` at debug level in the
/// `libfprint-print` domain (fpi-print.c, the same from 1.94.5 to 1.94.9), so a log handler on
/// that one domain collects them. If a future libfprint logs otherwise, matches still work and
/// are reported with libfprint's threshold as their score, and a stricter threshold of ours
/// fails closed (see `NBISMatcher.threshold`).
final class BozorthScores {
    private(set) var collected: [Int] = []

    func reset() { collected.removeAll(keepingCapacity: true) }

    /// Installs the handler; `self` must outlive the process (the session is never freed).
    func install() {
        g_log_set_handler("libfprint-print", Int32(FPMOD_G_LOG_LEVEL_DEBUG), { _, _, message, userData in
            guard let message, let userData else { return }
            let scores = Unmanaged<BozorthScores>.fromOpaque(userData).takeUnretainedValue()
            if let score = BozorthScores.parse(String(cString: message)) { scores.collected.append(score) }
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The S of "score S/T", nil for any other message.
    static func parse(_ message: String) -> Int? {
        guard message.hasPrefix("score ") else { return nil }
        let rest = message.dropFirst("score ".count)
        guard let slash = rest.firstIndex(of: "/") else { return nil }
        return Int(rest[..<slash])
    }
}
