import Administration
import HostMatching
import Imaging
import TemplateStore

extension HostReader {
    /// Guided enrollment of one finger on a small sensor: `captures` touches (5…15), each checked
    /// for quality and kept as an impression of the template, then ONE store transaction (user
    /// created if new, the finger in a free host slot, the audit row).
    ///
    /// Refuses before any capture a capture count outside 5…15, a label the user already has and
    /// a full library; refuses a finger already enrolled for anyone, naming whose, as soon as a
    /// touch matches the gallery. A poor touch (no finger, too few ridge details, low quality) or
    /// the same image twice is asked for again (`retryScan`, counted in `retries`); after a
    /// touch that showed little of the finger, the next prompt says how to place it. Which
    /// touches show one finger is decided at the end (`EnrollmentCollector`): the template keeps
    /// every touch, and the audit names those that matched no other; when too few match each
    /// other, more touches are asked for (up to 4 more: they may link the others), and then the
    /// touches are taken as they are; touches of two fingers end it. More refused touches than
    /// `captures` + 4 end it too, but with the touches kept so far when they make a template
    /// (enough of them linked, or all `captures` of them given; no second finger): one touch
    /// that cannot be given well, a scar or a dry corner, need not cost the good ones.
    ///
    /// No intent: nothing is written anywhere but the store, in one transaction, so a crash
    /// before the commit leaves nothing and one after it leaves the enrollment complete.
    @discardableResult
    public func enroll(user userName: UserName, displayName: DisplayName?, label fingerLabel: FingerLabel, captures: Int,
                       admin: Bool, duress: Bool, progress: (EnrollProgress) -> Void) throws -> EnrollResult {
        let user = userName.text, label = fingerLabel.text
        guard enrollCaptureRange.contains(captures) else {
            throw AdministrationError.invalidCaptureCount(captures, allowed: enrollCaptureRange)
        }
        _ = try sensor
        let existing = try store.user(named: user)
        if existing != nil, let same = try store.fingers(of: user).first(where: { $0.label == label }) {
            throw AdministrationError.fingerAlreadyEnrolled(user: user, label: label, slot: same.slot)
        }
        // Fail before asking for a finger when nothing could be stored anyway.
        _ = try freeSlot()
        let gallery = try currentGallery()

        var collector = EnrollmentCollector(wanted: captures, matcher: matcher)
        var retries = 0
        let extraTouches = 4
        var kept: [Int] = [], unlinked: [Int] = []
        touches: while true {
            let capture = collector.touches.count + 1
            let total = max(captures, capture)
            while true {
                progress(.placeFinger(capture: capture, of: total))
                try waitForTouch()
                switch try take(capture: capture, into: &collector, gallery: gallery, enrolling: user, label: label) {
                case .kept(let advice, let quality):
                    progress(.stagePassed(capture: capture, of: total))
                    progress(.touchQuality(capture: capture, score: quality))
                    if let advice { progress(.adjustFinger(advice: advice.rawValue)) }
                case .retry(let reason):
                    retries += 1
                    // A sensor that keeps giving unusable or repeated images ends it, never loops.
                    guard retries <= captures + extraTouches else {
                        guard let done = try Self.template(from: collector.finalOutcome) else {
                            throw HostReaderError.enrollFailed(reason: "\(retries) touches were refused (the last: \(reason))")
                        }
                        (kept, unlinked) = done
                        break touches
                    }
                    progress(.retryScan(capture: capture, reason: reason))
                    progress(.liftFinger)
                    try waitForLift()
                    continue
                }
                break
            }
            if collector.touches.count >= captures {
                // The extra touches given too, the touches are taken as they are (`finalOutcome`).
                let outcome = collector.touches.count >= captures + extraTouches ? collector.finalOutcome : collector.outcome
                if let done = try Self.template(from: outcome) {
                    (kept, unlinked) = done
                    break touches
                }
                progress(.retryScan(capture: capture + 1, reason: "the touches so far overlap too little; one more, centred on the sensor"))
            }
            progress(.liftFinger)
            try waitForLift()
        }
        let template = matcher.template(of: kept.map { collector.touches[$0] })
        let slot = try freeSlot()
        if !unlinked.isEmpty { progress(.touchesMatchedNoOther(touches: unlinked.map { $0 + 1 })) }
        progress(.storing(slot: slot))
        let quality = kept.map { collector.touches[$0].print.quality.score }.reduce(0, +) / max(1, kept.count)
        let unlinkedNote = unlinked.isEmpty ? "" : "; touches \(unlinked.map { String($0 + 1) }.joined(separator: ", ")) matched no other"
        try failpoint("enroll.before-commit")
        let digests = try store.transaction { () -> (before: String, after: String) in
            // Another process may have paired the store with a module since this reader opened it.
            try HostStoreGuard.check(store, deep: false)
            let before = try store.enrolledSetDigest()
            if existing == nil {
                try store.addUser(name: userName, displayName: displayName, role: admin ? .admin : .user)
            } else if admin, existing?.role != .admin {
                try store.setRole(.admin, for: user)
            }
            try store.addFinger(user: userName, label: fingerLabel, slot: slot, template: template.bytes, quality: quality, duress: duress)
            // A kill here, with the transaction open, must leave no trace (SQLite rolls it back).
            try failpoint("enroll.inside-transaction")
            try StoreReaderKind.record(.imageSensor, in: store)
            try store.appendAudit(event: "enroll", user: user, slot: slot,
                                  detail: "enrolled \(label)\(duress ? " (duress finger)" : "") from \(kept.count) of \(collector.touches.count) touches "
                                      + "(\(retries) retried\(unlinkedNote))")
            return (before, try store.enrolledSetDigest())
        }
        // The one new finger is added to the gallery in place, when the gallery was exactly the
        // store's set before it; else (or if it cannot take the template: the enroll is
        // committed by now, so that is no error) the next search rebuilds it whole.
        cachedGallery = cachedGallery.flatMap { cached in
            cached.digest == digests.before ? try? cached.adding(slot: slot, template: template, digest: digests.after) : nil
        }
        return EnrollResult(user: user, label: label, slot: slot, captures: kept.count, retries: retries, newUser: existing == nil)
    }

    /// What one touch of an enrollment gave.
    private enum Touch {
        /// Kept; with advice for the next touch when this one showed little of the finger.
        case kept(PlacementAdvice?, quality: Int)
        /// Not kept: the same touch is asked for again, for this reason.
        case retry(String)
    }

    /// One touch: captured, extracted, checked against the gallery (a finger enrolled for anyone
    /// ends the enrollment) and added to `collector`.
    private func take(capture: Int, into collector: inout EnrollmentCollector, gallery: HostGallery, enrolling user: String,
                      label: String) throws -> Touch {
        let image: GreyImage
        switch try self.capture() {
        case .empty(let reason): return .retry(reason)
        case .finger(let captured): image = captured
        }
        let probe: Probe
        do {
            probe = try matcher.probe(image)
        } catch {
            guard case .unusableImage(let reason) = error else { throw error }
            return .retry("poor capture (\(reason))")
        }
        if let hit = matcher.identify(probe: probe, gallery: gallery.gallery) {
            let slot = gallery.slots[hit.index]
            let owner = try store.finger(atSlot: slot)
            try store.appendAudit(event: "enroll-duplicate", user: owner?.user, slot: slot, score: hit.score,
                                  detail: "refused enrolling \(user)'s \(label): already enrolled")
            throw AdministrationError.duplicateFinger(slot: slot, user: owner?.user, label: owner?.label)
        }
        switch collector.add(probe) {
        case .sameAsEarlier(let earlier):
            return .retry("the same image as touch \(earlier); lift the finger and place it a little differently")
        case .kept:
            return .kept(PlacementAdvice.advice(for: probe.print), quality: probe.print.quality.score)
        }
    }

    /// The lowest host slot the store does not hold (nor a pending operation of a module
    /// reader's, should one have been left in this store).
    func freeSlot() throws -> Int {
        let taken = try store.occupiedSlots().union(store.slotsHeldByIntents())
        guard let slot = (0..<capacity).first(where: { !taken.contains($0) }) else {
            throw HostReaderError.libraryFull(capacity: capacity)
        }
        return slot
    }

    /// The touches to keep when the collector has a template; nil while too few link. Touches of
    /// two fingers end the enrollment: more touches cannot undo two fingers' worth of evidence.
    static func template(from outcome: EnrollmentCollector.Outcome) throws -> (kept: [Int], unlinked: [Int])? {
        switch outcome {
        case let .template(kept, unlinked): return (kept, unlinked)
        case let .differentFingers(first, second): throw HostReaderError.differentFingers(first: first, second: second)
        case .tooFewLinked: return nil
        }
    }
}
