import FingerprintProtocol

/// Grow R50x AutoIdentify (32, protocol.md §2.3): capture, extract and search in one command.
extension SimulatedModule {
    /// Parameters: security level, start and count (one byte each), report-every-step flag,
    /// tolerated failed attempts. Every ack has length 0008: code, step, ID (2), score (2).
    /// Steps: 01 image captured, 02 features extracted, 03 the search result; with the flag 0
    /// only the final ack is sent. Each segment leaves after the work before it, so step acks
    /// cost their wire time on top (a real module may overlap them; not documented).
    ///
    /// What the manual leaves open, decided here and stated: a module with no finger waits
    /// up to 10 s and answers `26` (timeout); a poor image is a failed attempt, captured again
    /// up to the tolerated count, then answered `07` (the GenImg/Img2Tz code for too few features).
    mutating func autoIdentify(_ command: Command) -> ReplyPlan {
        guard command.parameters.count >= 5 else { return ack(.packetError, for: command) }
        let level = Int(command.parameters[0])
        let start = Int(command.parameters[1]), count = Int(command.parameters[2])
        let reportSteps = command.parameters[3] != 0
        let tolerated = Int(command.parameters[4])
        guard (1...5).contains(level) else { return ack(.packetError, for: command) }
        var segments: [ReplyPlan.Segment] = []
        var pending: Duration = .zero
        func step(_ code: ConfirmationCode, _ number: UInt8, slot: Int = 0, score: Int = 0, final: Bool = false) {
            guard reportSteps || final else { return }
            let payload = [number] + UInt16(slot).bigEndianByteArray + UInt16(score).bigEndianByteArray
            segments.append(.init(delay: pending, frames: [Acknowledgement(code: code, payload: payload).frame(address: flash.address)]))
            pending = .zero
        }
        var failures = 0
        var probe: [Minutia] = []
        while true {
            guard let placement = sensor.capture() else {
                pending += timing.mode == .datasheet ? .seconds(10) : .zero
                step(ConfirmationCode(rawValue: 0x26), 0x01, final: true)
                return ReplyPlan(segments: segments, instruction: command.instruction)
            }
            storeCapture(placement)
            pending += timing.captureDuration(fingerPresent: true)
            step(.success, 0x01)
            pending += timing.extractDuration()
            if let minutiae = image?.minutiae, minutiae.count >= Matcher.minimumFeatures {
                probe = minutiae
                break
            }
            failures += 1
            if failures > tolerated {
                step(.featureFail, 0x02, final: true)
                return ReplyPlan(segments: segments, instruction: command.instruction)
            }
        }
        // The features land in a char buffer, as Img2Tz(1) would leave them.
        charBuffers[0] = CharFile.encode(probe, quality: image?.quality ?? 0x50, size: profile.charFileSize)
        latestExtracted = 0
        step(.success, 0x02)
        let (hit, searched) = librarySearch(for: probe, start: start, count: count,
                                            threshold: Matcher.threshold(securityLevel: level))
        pending += timing.searchDuration(templates: searched)
        lastMatchSucceeded = hit != nil
        if let hit {
            step(.success, 0x03, slot: hit.slot, score: hit.score, final: true)
        } else {
            step(.notFound, 0x03, final: true)
        }
        return ReplyPlan(segments: segments, instruction: command.instruction)
    }
}
