import Administration
import HostMatching
import Imaging
import TemplateStore

extension HostReader {
    /// Guided enrollment of one finger: the matcher's enroll stages (5 for libfprint's NBIS,
    /// whatever `captures` says: that count is a module's), each a new touch, then ONE store
    /// transaction (user created if new, the finger in a free host slot, the audit row).
    ///
    /// Refuses before any capture a label the user already has and a full library; refuses a
    /// finger already enrolled for anyone, naming whose, as soon as a capture matches the
    /// gallery. Poor captures (no finger on the image, too few minutiae) and captures that do
    /// not look like the earlier ones' finger are asked for again (`retryScan`, counted in
    /// `retries`); a third capture of another finger ends it with `capturesDiffer`.
    ///
    /// No intent: nothing is written anywhere but the store, in one transaction, so a crash
    /// before the commit leaves nothing and one after it leaves the enrollment complete.
    @discardableResult
    public func enroll(user userName: UserName, displayName: DisplayName?, label fingerLabel: FingerLabel, captures: Int,
                       admin: Bool, duress: Bool, progress: (EnrollProgress) -> Void) throws -> EnrollResult {
        let user = userName.text, label = fingerLabel.text
        _ = try sensor
        let existing = try store.user(named: user)
        if existing != nil, let same = try store.fingers(of: user).first(where: { $0.label == label }) {
            throw AdministrationError.fingerAlreadyEnrolled(user: user, label: label, slot: same.slot)
        }
        // Fail before asking for a finger when nothing could be stored anyway.
        _ = try freeSlot()
        let stages = try matcher.enrollStages()
        let gallery = try currentGallery()

        var taken = EnrollCaptures()
        for capture in 1...stages {
            while true {
                progress(.placeFinger(capture: capture, of: stages))
                try waitForTouch()
                if try take(capture: capture, into: &taken, gallery: gallery, enrolling: user, label: label, progress: progress) {
                    break
                }
                progress(.liftFinger)
                try waitForLift()
            }
            progress(.stagePassed(capture: capture, of: stages))
            if capture < stages {
                progress(.liftFinger)
                try waitForLift()
            }
        }
        let images = taken.images, retries = taken.retries

        let template: HostTemplate
        do {
            template = try matcher.enroll(images: images)
        } catch {
            // (A `catch .case` pattern on this typed throw crashes Swift 6.3's SIL verifier.)
            guard case .notEnoughUsableImages(let needed, let accepted, _) = error else { throw error }
            throw HostReaderError.enrollFailed(reason: "libfprint accepted \(accepted) of the \(needed) captures it needs")
        }
        let slot = try freeSlot()
        progress(.storing(slot: slot))
        let quality = max(0, 100 - 20 * retries)
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
                                  detail: "enrolled \(label)\(duress ? " (duress finger)" : "") from \(stages) captures (\(retries) retried)")
            return (before, try store.enrolledSetDigest())
        }
        // The one new finger is added to the gallery in place, when the gallery was exactly the
        // store's set before it; else (or if it cannot take the template: the enroll is
        // committed by now, so that is no error) the next search rebuilds it whole.
        cachedGallery = cachedGallery.flatMap { cached in
            cached.digest == digests.before ? try? cached.adding(slot: slot, template: template, digest: digests.after) : nil
        }
        return EnrollResult(user: user, label: label, slot: slot, captures: stages, retries: retries, newUser: existing == nil)
    }

    /// One capture of an enrollment, kept in `taken` when good (true); after a `retryScan`
    /// (false) it must be taken again. A capture that matches an enrolled finger ends the
    /// enrollment, and so does a finger that keeps differing from the earlier captures.
    private func take(capture: Int, into taken: inout EnrollCaptures, gallery: HostGallery, enrolling user: String,
                      label: String, progress: (EnrollProgress) -> Void) throws -> Bool {
        func retry(_ reason: String) -> Bool {
            taken.retries += 1
            progress(.retryScan(capture: capture, reason: reason))
            return false
        }
        let image: GreyImage
        switch try self.capture() {
        case .empty(let reason): return retry(reason)
        case .finger(let captured): image = captured
        }
        let probe: PairTable
        do {
            probe = try matcher.probe(image)
        } catch {
            guard case .unusableImage(let reason) = error else { throw error }
            return retry("poor capture (\(reason))")
        }
        if let hit = matcher.identify(probe: probe, gallery: gallery.gallery) {
            let slot = gallery.slots[hit.index]
            let owner = try store.finger(atSlot: slot)
            try store.appendAudit(event: "enroll-duplicate", user: owner?.user, slot: slot, score: hit.score,
                                  detail: "refused enrolling \(user)'s \(label): already enrolled")
            throw AdministrationError.duplicateFinger(slot: slot, user: owner?.user, label: owner?.label)
        }
        if !taken.probes.isEmpty, taken.bestScore(against: probe) < sameFingerMinimumScore {
            taken.mismatches += 1
            if taken.mismatches >= Self.mismatchesBeforeGivingUp { throw AdministrationError.capturesDiffer }
            return retry("this does not look like the finger of the earlier captures")
        }
        taken.images.append(image)
        taken.probes.append(probe)
        return true
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
}

/// What an enrollment collected so far.
struct EnrollCaptures {
    var images: [GreyImage] = []
    /// Each good capture's pair table, to check that later captures show the same finger.
    var probes: [PairTable] = []
    /// Captures asked for again (poor, empty, or another finger).
    var retries = 0
    /// Captures refused as another finger than the earlier ones.
    var mismatches = 0

    /// The best agreement of `probe` with an earlier capture. Both tables are probe tables
    /// (each pair stored one way), so pairs whose two minutiae swap order between the images
    /// are missed: scores run lower than a gallery search's (on the generated fingers: another
    /// impression of the same finger 19…165, another finger at most 4).
    func bestScore(against probe: PairTable) -> Int {
        var matcher = PairMatcher()
        return probes.map { matcher.score(probe: probe, gallery: $0) }.max() ?? 0
    }
}
