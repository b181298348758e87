import Administration
import FingerprintModule
import Posix

/// Identify touches on a host reader over an image sensor, genuine fingers and strangers:
/// each split into the stages the reader reports (capture, extract, search) and the door's
/// decision after it, and set against `SensorFloor`, measured on the same image right after.
public struct SensorIdentifyBench {
    /// One touch: which finger goes down, and whose it is (nil: a stranger, enrolled nowhere).
    public struct Touch {
        public let finger: String
        public let owner: String?
    }

    public let reader: any FingerprintReader
    public let recorder: RecordingSensor
    public let floor: SensorFloor
    /// Slot → user, as the store has it: what the door's decision looks up.
    public let owners: [Int: String]
    public let place: (String) -> Void
    public let lift: () -> Void
    /// One capture of a finger straight from the sensor, outside the reader: the simulated
    /// sensor renders a generated finger on its first capture (a real sensor has nothing like
    /// it), so each finger is captured once before anything is timed.
    public let prepare: (String) -> Void

    /// What the touches ended in. Every touch lands in exactly one count of its kind.
    public struct Counts {
        public var genuine = 0, genuineMatched = 0, genuineMissed = 0, genuineWrongFinger = 0, genuineUnusable = 0
        public var strangers = 0, strangersRejected = 0, strangersMatched = 0, strangersUnusable = 0
        /// Errors the reader threw for a touch (not a lost device: that ends the bench).
        public var errors: [String] = []
    }

    public struct Result {
        public var samples: [Stage: [StageSample]] = [:]
        public var counts = Counts()
        public var cycles = 0
        /// The untimed first identify after the library was filled: it builds the gallery.
        public var firstIdentify: Int64?
        /// The matcher's own search times (the search floor), for its templates per second.
        public var floorSearches: [Int64] = []
        /// Minutiae of each timed probe.
        public var probeMinutiae: [Int] = []
        /// From the call to the capture's start: the reader checking its gallery is current
        /// (the store's enrolled-set digest). Part of `total`, in no stage.
        public var beforeCapture: [Int64] = []
        /// Touches that did not end as they should: a genuine finger not found (or found as
        /// someone else), a stranger let in. Unusable images are counted apart.
        public var misses: Int { counts.genuineMissed + counts.genuineWrongFinger + counts.strangersMatched }
        public var summaries: [StageSummary] { Stage.allCases.compactMap { StageSummary(stage: $0, samples: samples[$0] ?? []) } }
    }

    /// `count` touches: every third one a stranger (when there are any), the others the
    /// enrolled fingers in turn, so a short run still sees both kinds.
    public static func plan(_ count: Int, genuine: [(finger: String, user: String)], strangers: [String]) -> [Touch] {
        var touches: [Touch] = []
        var nextGenuine = 0, nextStranger = 0
        for index in 0..<count {
            if !strangers.isEmpty && (index % 3 == 2 || genuine.isEmpty) {
                touches.append(Touch(finger: strangers[nextStranger % strangers.count], owner: nil))
                nextStranger += 1
            } else if !genuine.isEmpty {
                let finger = genuine[nextGenuine % genuine.count]
                touches.append(Touch(finger: finger.finger, owner: finger.user))
                nextGenuine += 1
            }
        }
        return touches
    }

    /// `verifying`: each touch compared 1:1 with one user's fingers, as after a card
    /// (card-and-finger): a genuine finger with its owner's, a stranger with an enrolled user's
    /// in turn (someone else's card). nil: 1:N identify.
    public func run(_ touches: [Touch], warmUp: Touch?, verifying users: [String]? = nil) throws -> Result {
        var result = Result()
        var prepared: Set<String> = []
        for touch in touches where prepared.insert(touch.finger).inserted { prepare(touch.finger) }
        if let warmUp {
            let start = Monotonic.nanoseconds()
            place(warmUp.finger)
            var timing = IdentifyTiming()
            _ = try? reader.scanOnce(plan: nil, timing: &timing)
            lift()
            result.firstIdentify = Int64(Monotonic.nanoseconds() - start)
        }
        for (index, touch) in touches.enumerated() {
            let claimed = users.map { touch.owner ?? ($0.isEmpty ? "" : $0[index % $0.count]) }
            _ = recorder.takeLastImage()
            place(touch.finger)
            var timing = IdentifyTiming()
            let outcome: IdentifyOutcome
            let called = Monotonic.nanoseconds()
            do {
                if let claimed {
                    outcome = try reader.scanOnce(verifying: claimed, timing: &timing)
                } else {
                    outcome = try reader.scanOnce(plan: nil, timing: &timing)
                }
            } catch {
                lift()
                if reader.isDeviceLoss(error) { throw error }
                result.cycles += 1
                count(touch, outcome: nil, owner: nil, into: &result.counts)
                result.counts.errors.append("\(touch.finger): \(error)")
                continue
            }
            // The door's decision: whose finger, if anyone's.
            var owner: String?
            if case let .match(slot, _) = outcome { owner = owners[slot] ?? "" }
            let decided = Monotonic.nanoseconds()
            lift()
            result.cycles += 1
            count(touch, outcome: outcome, owner: owner, into: &result.counts)
            guard Self.searched(outcome), timing.captureEnd > 0, timing.extractEnd > 0, timing.searchEnd > 0 else { continue }
            let floors = recorder.takeLastImage().flatMap(floor.measure)
            if let floors {
                result.floorSearches.append(floors.search)
                result.probeMinutiae.append(floors.minutiae)
            }
            result.beforeCapture.append(Int64(timing.captureStart) - Int64(called))
            record(timing: timing, called: called, decided: decided, floors: floors.map { ($0.extract, $0.search) }, into: &result)
        }
        return result
    }

    /// Only touches that reached the 1:N search are timed; a stranger's search scans the whole
    /// gallery just as a genuine one does, so both count.
    private static func searched(_ outcome: IdentifyOutcome) -> Bool {
        switch outcome {
        case .match, .noMatch: true
        case .noFinger, .poorImage: false
        }
    }

    private func count(_ touch: Touch, outcome: IdentifyOutcome?, owner: String?, into counts: inout Counts) {
        let searched = outcome.map(Self.searched) ?? false
        if let expected = touch.owner {
            counts.genuine += 1
            if !searched { counts.genuineUnusable += 1 } else if owner == nil { counts.genuineMissed += 1 } else if owner == expected {
                counts.genuineMatched += 1
            } else {
                counts.genuineWrongFinger += 1
            }
        } else {
            counts.strangers += 1
            if !searched { counts.strangersUnusable += 1 } else if owner == nil { counts.strangersRejected += 1 } else {
                counts.strangersMatched += 1
            }
        }
    }

    /// Capture: all in this process on the simulator (host code = measured), set against the
    /// SPI wire time. Extract and search: the reader's share beyond the matcher alone is both
    /// 'over' and 'host code'. Decision: the bench's own lookup, all host code. Total: from the
    /// call, as the door waits for it (the gallery check before the capture included).
    private func record(timing: IdentifyTiming, called: UInt64, decided: UInt64, floors: (extract: Int64, search: Int64)?,
                        into result: inout Result) {
        let capture = Int64(timing.captureEnd - timing.captureStart)
        let extract = Int64(timing.extractEnd - timing.captureEnd)
        let search = Int64(timing.searchEnd - timing.extractEnd)
        let decision = Int64(decided - timing.searchEnd)
        let captureFloor = floor.captureNanoseconds
        result.samples[.capture, default: []].append(StageSample(measured: capture, limit: captureFloor, hostCode: capture))
        // Time beyond the matcher is never below zero: a reader's run faster than the floor's own
        // run of the same image is the matcher's spread, not host code (that shows in "over").
        result.samples[.extract, default: []].append(
            StageSample(measured: extract, limit: floors?.extract, hostCode: max(0, extract - (floors?.extract ?? 0))))
        result.samples[.search, default: []].append(
            StageSample(measured: search, limit: floors?.search, hostCode: max(0, search - (floors?.search ?? 0))))
        result.samples[.decision, default: []].append(StageSample(measured: decision, limit: 0, hostCode: decision))
        let totalFloor = floors.map { captureFloor + $0.extract + $0.search }
        let total = Int64(decided - called)
        // Everything but the matcher's own work is this process's: total − extract and search floors.
        let host = max(0, total - (floors.map { $0.extract + $0.search } ?? 0))
        result.samples[.total, default: []].append(StageSample(measured: total, limit: totalFloor, hostCode: host))
    }
}
