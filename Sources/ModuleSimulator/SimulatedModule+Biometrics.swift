import FingerprintProtocol

/// Capture, feature extraction, matching, searching and merging.
extension SimulatedModule {
    /// GenImg (01), GetImageEx (28, R50x: `07` for a poor image) and GetImageFree (52, AS608).
    mutating func captureImage(_ command: Command) -> ReplyPlan {
        let present = sensor.fingerPresent
        let delay = timing.captureDuration(fingerPresent: present)
        if profile.familyProfile.genImgWipesFeatures { latestExtracted = nil }
        guard let placement = sensor.capture() else {
            return ack(.noFinger, for: command, delay: delay)
        }
        storeCapture(placement)
        if command.instruction == .getImageEx && placement.quality == .poor {
            return ack(.featureFail, for: command, delay: delay)
        }
        return ack(.success, for: command, delay: delay)
    }

    mutating func storeCapture(_ placement: Placement) {
        captureCounter += 1
        let minutiae = placement.finger.capture(quality: placement.quality, using: &random)
        let quality: UInt8 = switch placement.quality {
        case .good: UInt8.random(in: 0x50...0x5F, using: &random)
        case .partial: UInt8.random(in: 0x40...0x4F, using: &random)
        case .poor: UInt8.random(in: 0x10...0x20, using: &random)
        }
        image = ImageBuffer(placement: placement, minutiae: minutiae, quality: quality, downloaded: nil,
                            seed: random.next())
    }

    /// Img2Tz (02): the image's features into a char buffer.
    mutating func extractFeatures(_ command: Command) -> ReplyPlan {
        guard command.parameters.count >= 1 else { return ack(.packetError, for: command) }
        let delay = timing.extractDuration()
        guard let current = image else { return ack(.invalidImage, for: command, delay: delay) }
        guard let minutiae = current.minutiae else { return ack(.imageMessy, for: command, delay: delay) }
        guard minutiae.count >= Matcher.minimumFeatures else { return ack(.featureFail, for: command, delay: delay) }
        let index = bufferIndex(command.parameters[0])
        charBuffers[index] = CharFile.encode(minutiae, quality: current.quality, size: profile.charFileSize)
        latestExtracted = index
        return ack(.success, for: command, delay: delay)
    }

    /// The features Search and (R50x) Match use as the probe.
    func probeFeatures(buffer id: UInt8) -> [Minutia] {
        let bytes: [UInt8]?
        if profile.familyProfile.genImgWipesFeatures {
            bytes = latestExtracted.flatMap { charBuffers[$0] }
        } else {
            bytes = charBuffers[bufferIndex(id)]
        }
        return bytes.map { CharFile.features(in: $0, charFileSize: profile.charFileSize) } ?? []
    }

    var threshold: Int { Matcher.threshold(securityLevel: flash.securityLevel) }

    /// Match (03): buffer 1 against buffer 2 on ZFM/AS608; on R50x the latest features against
    /// the model buffer (protocol.md §2.1, pyfingerprint#90).
    mutating func match(_ command: Command) -> ReplyPlan {
        let first: [UInt8]?, second: [UInt8]?
        if profile.familyProfile.genImgWipesFeatures, let model = modelBuffer {
            first = latestExtracted.flatMap { charBuffers[$0] }
            second = model
        } else {
            first = charBuffers[0]
            second = charBuffers[1]
        }
        let score = Matcher.score(features(first), against: features(second))
        lastMatchSucceeded = score >= threshold
        guard lastMatchSucceeded else { return ack(.noMatch, payload: [0, 0], for: command) }
        return ack(.success, payload: UInt16(score).bigEndianByteArray, for: command)
    }

    func features(_ bytes: [UInt8]?) -> [Minutia] {
        bytes.map { CharFile.features(in: $0, charFileSize: profile.charFileSize) } ?? []
    }

    /// Search (04), HighSpeedSearch (1B) and SearchResBack (56): the slot `searchModel` picks.
    mutating func search(_ command: Command) -> ReplyPlan {
        guard command.parameters.count >= 5 else { return ack(.packetError, for: command) }
        let start = command.parameters.bigEndianValue(at: 1, size: 2)
        let count = command.parameters.bigEndianValue(at: 3, size: 2)
        let probe = probeFeatures(buffer: command.parameters[0])
        let (hit, searched) = librarySearch(for: probe, start: start, count: count)
        let delay = timing.searchDuration(templates: searched)
        lastMatchSucceeded = hit != nil
        guard let hit else {
            // A real R503 answered a failed search with junk in the page field (protocol.md §1.4 d).
            let junk: [UInt8] = profile.family == .r50x ? [0x01, 0xEE, 0x00, 0x00] : [0, 0, 0, 0]
            return ack(.notFound, payload: junk, for: command, delay: delay)
        }
        return ack(.success, payload: SearchHit(slot: hit.slot, score: hit.score).payload, for: command, delay: delay)
    }

    /// The template the search model answers for `probe` in `start ..< start + count`, and how
    /// many templates it compared to get there (what the search time is proportional to).
    func librarySearch(for probe: [Minutia], start: Int, count: Int, threshold: Int? = nil) -> (SearchHit?, Int) {
        let threshold = threshold ?? self.threshold
        let end = min(profile.capacity, start + count)
        guard start < end, !probe.isEmpty else { return (nil, 0) }
        var best: SearchHit?
        var searched = 0
        for slot in occupiedSlots where slot >= start && slot < end {
            searched += 1
            let score = Matcher.score(probe, against: features(flash.library[slot]))
            guard score >= threshold else { continue }
            if searchModel == .firstMatch { return (SearchHit(slot: slot, score: score), searched) }
            if score > (best?.score ?? 0) { best = SearchHit(slot: slot, score: score) }
        }
        return (best, searched)
    }

    /// RegModel (05): merges the filled feature buffers into one template, `0A` if they are
    /// not the same finger. ZFM/AS608 leave the template in both buffers.
    mutating func registerModel(_ command: Command) -> ReplyPlan {
        let filled = profile.familyProfile.genImgWipesFeatures
            ? charBuffers.compactMap { $0 }
            : [charBuffers[0], charBuffers[1]].compactMap { $0 }
        guard filled.count >= 2 else { return ack(.enrollMismatch, for: command) }
        let reference = features(filled[0])
        for other in filled.dropFirst() where Matcher.score(features(other), against: reference) < threshold {
            return ack(.enrollMismatch, for: command)
        }
        let files = filled.map { Array($0.prefix(profile.charFileSize)) }
        let template = CharFile.template(from: files, templateSize: profile.templateSize)
        if profile.familyProfile.genImgWipesFeatures {
            modelBuffer = template
        } else {
            charBuffers[0] = template
            charBuffers[1] = template
        }
        return ack(.success, for: command)
    }

    /// AS608 AutoSearch (55): capture, extract and search in one command.
    mutating func autoSearch(_ command: Command) -> ReplyPlan {
        guard command.parameters.count >= 5 else { return ack(.packetError, for: command) }
        let wait = Duration.milliseconds(65 * Int(command.parameters[0]))
        guard let placement = sensor.capture() ?? sensor.capture() else {
            return ack(.noFinger, for: command, delay: timing.mode == .datasheet ? wait : .zero)
        }
        storeCapture(placement)
        guard let minutiae = image?.minutiae, minutiae.count >= Matcher.minimumFeatures else {
            return ack(.featureFail, for: command)
        }
        let start = command.parameters.bigEndianValue(at: 1, size: 2)
        let count = command.parameters.bigEndianValue(at: 3, size: 2)
        let (hit, searched) = librarySearch(for: minutiae, start: start, count: count)
        let delay = timing.captureDuration(fingerPresent: true) + timing.extractDuration() + timing.searchDuration(templates: searched)
        guard let hit else { return ack(.notFound, payload: [0, 0, 0, 0], for: command, delay: delay) }
        return ack(.success, payload: hit.payload, for: command, delay: delay)
    }

    /// AS608 AutoLogin (54): two or three captures (acks `56`, `57` after each), merge, store.
    mutating func autoLogin(_ command: Command) -> ReplyPlan {
        guard command.parameters.count >= 5 else { return ack(.packetError, for: command) }
        let captures = max(2, min(3, Int(command.parameters[1])))
        let slot = command.parameters.bigEndianValue(at: 2, size: 2)
        let allowDuplicate = command.parameters[4] != 0
        guard slot < profile.capacity else { return ack(.badLocation, for: command) }
        var segments: [ReplyPlan.Segment] = []
        var files: [[UInt8]] = []
        let step = timing.captureDuration(fingerPresent: true) + timing.extractDuration()
        for index in 0..<captures {
            // The module waits for the finger to lift and come back by itself.
            guard let placement = sensor.capture() ?? sensor.capture() else {
                segments.append(.init(delay: step, frames: [Acknowledgement(code: .noFinger).frame(address: flash.address)]))
                return ReplyPlan(segments: segments, instruction: command.instruction)
            }
            storeCapture(placement)
            guard let minutiae = image?.minutiae, minutiae.count >= Matcher.minimumFeatures else {
                segments.append(.init(delay: step, frames: [Acknowledgement(code: .featureFail).frame(address: flash.address)]))
                return ReplyPlan(segments: segments, instruction: command.instruction)
            }
            files.append(CharFile.encode(minutiae, quality: image?.quality ?? 0x50, size: profile.charFileSize))
            if index < 2 {
                let code = ConfirmationCode(rawValue: 0x56 + UInt8(index))
                segments.append(.init(delay: step, frames: [Acknowledgement(code: code).frame(address: flash.address)]))
            }
        }
        let reference = features(files[0])
        let final: ConfirmationCode
        if files.dropFirst().contains(where: { Matcher.score(features($0), against: reference) < threshold }) {
            final = .enrollMismatch
        } else if !allowDuplicate, librarySearch(for: reference, start: 0, count: profile.capacity).0 != nil {
            final = ConfirmationCode(rawValue: 0x24)
        } else {
            flash.library[slot] = CharFile.template(from: files, templateSize: profile.templateSize)
            flashChanged()
            final = .success
        }
        segments.append(.init(delay: timing.flashWriteDuration(), frames: [Acknowledgement(code: final).frame(address: flash.address)]))
        return ReplyPlan(segments: segments, instruction: command.instruction)
    }
}
