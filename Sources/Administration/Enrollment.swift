import FingerprintModule
import FingerprintProtocol
import Foundation
import TemplateStore

/// One step of a guided enrollment, in fprintd's vocabulary (field.md §2.2–2.3).
public enum EnrollProgress: Equatable, Sendable, CustomStringConvertible {
    /// Waiting for touch `capture` of `of`.
    case placeFinger(capture: Int, of: Int)
    /// `enroll-stage-passed`: the capture was good.
    case stagePassed(capture: Int, of: Int)
    case liftFinger
    /// `enroll-retry-scan`: the capture was poor; the same capture is asked for again.
    case retryScan(capture: Int, reason: String)
    /// Captures merged; looking for duplicates and a free slot, then writing.
    case storing(slot: Int)
    /// The last touch was kept but showed less of the finger than it could: how to place the next.
    case adjustFinger(advice: String)
    /// The kept touch's image quality, 0 (useless) … 100 (clear and large), from a reader that
    /// measures it (an image sensor matched on the host; a module says nothing of it).
    case touchQuality(capture: Int, score: Int)
    /// Touches (numbered from 1) that matched no other touch of the enrollment, kept: on a small
    /// sensor they show parts of the finger the others did not, but one may be another finger.
    case touchesMatchedNoOther(touches: [Int])

    /// fprintd's status string for this step.
    public var status: String {
        switch self {
        case .placeFinger: "enroll-place-finger"
        case .stagePassed: "enroll-stage-passed"
        case .liftFinger: "enroll-remove-finger"
        case .retryScan: "enroll-retry-scan"
        case .storing: "enroll-storing"
        case .adjustFinger: "enroll-finger-not-centered"
        // Not one of fprintd's: a client that does not know it shows the worded line.
        case .touchQuality: "enroll-touch-quality"
        case .touchesMatchedNoOther: "enroll-touches-matched-no-other"
        }
    }

    public var description: String {
        switch self {
        case .placeFinger(let capture, let total): "Place your finger (\(capture)/\(total))"
        case .stagePassed(let capture, let total): "enroll-stage-passed (\(capture)/\(total))"
        case .liftFinger: "Lift your finger"
        case .retryScan(_, let reason): "enroll-retry-scan: \(reason); place the same finger again"
        case .storing(let slot): "Storing the template in slot \(slot)…"
        case .adjustFinger(let advice): "Next touch: \(advice)"
        case .touchQuality(let capture, let score): "Touch \(capture): quality \(score) of 100"
        case .touchesMatchedNoOther(let touches):
            "\(touches.count == 1 ? "Touch" : "Touches") \(touches.map(String.init).joined(separator: ", ")) matched no other touch: "
                + "kept, as parts of the finger the others did not show (if one was another finger, delete this finger and enroll it again)"
        }
    }
}

/// A finished enrollment.
public struct EnrollResult: Equatable, Sendable {
    public var user: String
    public var label: String
    public var slot: Int
    public var captures: Int
    /// Poor captures that had to be repeated.
    public var retries: Int
    public var newUser: Bool

    public init(user: String, label: String, slot: Int, captures: Int, retries: Int, newUser: Bool) {
        self.user = user
        self.label = label
        self.slot = slot
        self.captures = captures
        self.retries = retries
        self.newUser = newUser
    }
}

extension Administrator {
    /// A module merges 2…6 captures in its character buffers (the families with two merge only 2).
    public static let captureRange = 2...6

    /// Guided enrollment of one finger. Refuses a label the user already has and a finger
    /// enrolled for anyone (naming whose); picks a free slot from the module's index table and
    /// the store. Either the template ends up in the module and the store, or in neither.
    ///
    /// Captures: R50x fills one feature buffer per capture (up to 6) and RegModel fuses them;
    /// ZFM/AS608 have two buffers, so capture 1 goes to buffer 1, captures 2…N−1 to buffer 2 and
    /// are checked against buffer 1 with Match (a different finger fails early), and capture N
    /// goes to buffer 2 for RegModel. No GenImg runs between the last Img2Tz and the duplicate
    /// Search (R50x wipes its features on GenImg, protocol.md §9 #9).
    @discardableResult
    ///
    /// `duress`: the finger opens like any other and raises a silent duress alarm (`Finger.isDuress`).
    /// `user`, `label` and `displayName` are checked types: a refused name never reaches a
    /// finger prompt or the module (an older fpmod checked them after the module write).
    public func enroll(user userName: UserName, displayName: DisplayName? = nil, label fingerLabel: FingerLabel = "right-index",
                       captures: Int = 2, admin: Bool = false, duress: Bool = false,
                       progress: (EnrollProgress) -> Void = { _ in }) throws -> EnrollResult {
        let user = userName.text, label = fingerLabel.text
        guard Self.captureRange.contains(captures) else {
            throw AdministrationError.invalidCaptureCount(captures, allowed: Self.captureRange)
        }
        let existing = try store.user(named: user)
        if existing != nil, let same = try store.fingers(of: user).first(where: { $0.label == label }) {
            throw AdministrationError.fingerAlreadyEnrolled(user: user, label: label, slot: same.slot)
        }
        let capacity = try capacity
        // Fail before asking for a finger when nothing could be stored anyway.
        _ = try freeSlot(capacity: capacity)

        let retries = try captureAndMerge(captures: captures, progress: progress)
        let table = try module.readIndexTable()
        if let occupied = table.occupiedRange, case .found(let hit) = try module.search(buffer: CharBuffer.one, range: occupied) {
            let owner = try store.finger(atSlot: hit.slot)
            try store.appendAudit(event: "enroll-duplicate", user: owner?.user, slot: hit.slot, score: hit.score,
                                  detail: "refused enrolling \(user)'s \(label): already enrolled")
            throw AdministrationError.duplicateFinger(slot: hit.slot, user: owner?.user, label: owner?.label)
        }
        let slot = try freeSlot(capacity: capacity)
        progress(.storing(slot: slot))
        // The crash-test hook fires after the first data packet: a process killed there stops
        // in the middle of the template transfer.
        var interruption: (any Error)?
        module.dataPacketObserver = { [failpoint] _, packet in
            guard packet == 1 else { return }
            do { try failpoint("enroll.during-upload") } catch {
                interruption = error
                throw error
            }
        }
        defer { module.dataPacketObserver = nil }
        let template: [UInt8]
        do {
            template = try module.uploadTemplate(buffer: CharBuffer.one)
        } catch {
            if let interruption { throw interruption }
            throw error
        }
        let quality = max(0, 100 - 20 * retries)

        // A new user is created only with the finger; what the user should look like rides with
        // the intent, so an interrupted enroll can be finished with the right name and role.
        let intent = try store.transaction {
            let id = try store.beginEnrollIntent(user: userName, label: fingerLabel, slot: slot, template: template, quality: quality)
            if existing == nil {
                try store.setValue(NewUserRecord(displayName: displayName?.text, admin: admin).text, forKey: NewUserRecord.key(intent: id))
            }
            if duress { try store.setValue("1", forKey: DuressMark.key(intent: id)) }
            return id
        }
        try failpoint("enroll.before-module-write")
        do {
            try moduleStep("enroll of \(user)'s \(label)") { try module.store(buffer: CharBuffer.one, slot: slot) }
        } catch let error as ModuleError {
            // The module refused the write (full, bad slot, flash error): nothing is in the slot.
            try store.transaction {
                try store.completeIntent(intent)
                try store.setValue(nil, forKey: NewUserRecord.key(intent: intent))
                try store.setValue(nil, forKey: DuressMark.key(intent: intent))
                try store.appendAudit(event: "enroll-failed", user: user, slot: slot, detail: error.description)
            }
            if let code = error.confirmationCode, code == .libraryFull || code == .badLocation {
                throw AdministrationError.libraryFull(capacity: capacity)
            }
            throw error
        }
        try failpoint("enroll.after-module-write")
        try store.markIntentModuleWritten(intent)
        try failpoint("enroll.before-commit")
        try store.transaction {
            if existing == nil {
                try store.addUser(name: userName, displayName: displayName, role: admin ? .admin : .user)
            } else if admin, existing?.role != .admin {
                try store.setRole(.admin, for: user)
            }
            try store.addFinger(user: userName, label: fingerLabel, slot: slot, template: template, quality: quality, duress: duress)
            if let family = module.family?.rawValue, try store.value(forKey: TemplateStore.templateFamilyKey) != family {
                try store.setValue(family, forKey: TemplateStore.templateFamilyKey)
            }
            try store.completeIntent(intent)
            try store.setValue(nil, forKey: NewUserRecord.key(intent: intent))
            try store.setValue(nil, forKey: DuressMark.key(intent: intent))
            try store.appendAudit(event: "enroll", user: user, slot: slot,
                                  detail: "enrolled \(label)\(duress ? " (duress finger)" : "") from \(captures) captures (\(retries) retried)")
        }
        try recordSlotTable()
        return EnrollResult(user: user, label: label, slot: slot, captures: captures, retries: retries,
                            newUser: existing == nil)
    }

    /// The lowest slot free in the module and unknown to the store and to pending operations.
    func freeSlot(capacity: Int) throws -> Int {
        let table = try module.indexTable ?? module.readIndexTable()
        let taken = try store.occupiedSlots().union(store.slotsHeldByIntents())
        guard let slot = (0..<capacity).first(where: { !table.contains($0) && !taken.contains($0) }) else {
            throw AdministrationError.libraryFull(capacity: capacity)
        }
        return slot
    }

    /// Captures, extracts and merges into a template in buffer 1 (ZFM) or the model buffer (R50x).
    /// Returns how many poor captures were retried.
    func captureAndMerge(captures: Int, progress: (EnrollProgress) -> Void) throws -> Int {
        let buffers = module.profile.featureBuffers
        var retries = 0
        for capture in 1...captures {
            let buffer: UInt8 = buffers >= captures ? UInt8(capture) : (capture == 1 ? 1 : 2)
            while true {
                progress(.placeFinger(capture: capture, of: captures))
                try waitForCapture()
                let result = try module.extractFeatures(buffer: buffer)
                if case .ok = result { break }
                retries += 1
                let reason = if case .poorImage(let code) = result { "poor capture (\(module.family.flatMap { code.meaning(in: $0) } ?? "code \(code.rawValue)"))" } else { "no valid image" }
                progress(.retryScan(capture: capture, reason: reason))
                progress(.liftFinger)
                try waitForLift()
            }
            progress(.stagePassed(capture: capture, of: captures))
            if buffers < captures, capture > 1, capture < captures, try module.match() == nil {
                throw AdministrationError.capturesDiffer
            }
            if capture < captures {
                progress(.liftFinger)
                try waitForLift()
            }
        }
        guard try module.registerModel() == .merged else { throw AdministrationError.capturesDiffer }
        return retries
    }
}

/// How to create the user of an enroll intent that introduces a new user (kept in the store's
/// key-value table beside the intent, removed with it).
struct NewUserRecord {
    var displayName: String?
    var admin: Bool

    static func key(intent: Int64) -> String { "intent.\(intent).new-user" }

    var text: String { (admin ? "admin" : "user") + "\n" + (displayName ?? "") }

    init(displayName: String?, admin: Bool) {
        self.displayName = displayName
        self.admin = admin
    }

    init?(text: String?) {
        guard let text else { return nil }
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        admin = parts.first == "admin"
        displayName = parts.count > 1 && !parts[1].isEmpty ? String(parts[1]) : nil
    }
}

/// Marks an enroll intent whose finger is a duress finger (kept beside the intent, removed with
/// it), so an interrupted enroll finished at the next open keeps the flag.
enum DuressMark {
    static func key(intent: Int64) -> String { "intent.\(intent).duress" }
}
