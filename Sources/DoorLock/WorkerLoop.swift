import AccessPolicy
import Administration
import FingerprintModule
import FingerprintProtocol
import Foundation
import JSONValue
import Posix
import SerialPort
import TemplateStore

/// The worker thread's state and loop; the reader never leaves this thread. The policy's part
/// (scan, poll, health, admin commands, loss) is the same for either kind of reader; the LED
/// aura and the library's search order and layout (WorkerLoop+Library.swift) are a module's.
struct WorkerLoop {
    let worker: ReaderWorker
    var reader: (any FingerprintReader)?
    var backoff: Duration
    /// Polling mode: a scan happened and the finger has not been lifted yet.
    var awaitingLift = false
    var reportedDown = false
    /// The tamper finding last reported (nil after a trusted open).
    var reportedTamper: String?
    /// How scans search the library (WorkerLoop+Library.swift); nil: plan at the next idle step.
    var searchOrder: SearchOrder?
    /// When `searchOrder` was planned; nil: plan at the next idle step.
    var plannedAt: ContinuousClock.Instant?
    var scansSincePlan = 0
    /// Flash writes layout moves may still spend today.
    var flashWritesLeft = 0
    /// Writing the fleet hub's changes to the module (a removed user's templates deleted, a finger
    /// from the hub written) failed on this connection: not tried again until the module opens anew (whose reconcile tries once more), so a refusal is told once, not every step.
    var fleetWorkRefused = false
    /// The last scan or command: layout moves wait for a quiet spell after it.
    var lastActivity = ContinuousClock.now

    init(worker: ReaderWorker) {
        self.worker = worker
        backoff = worker.config.backoffInitial
    }

    /// The reader when it is a UART module with its store: the one with an LED ring, a flash
    /// library to order and lay out. An image sensor matched on the host has none of these.
    var administrator: Administrator? { reader as? Administrator }

    mutating func run() {
        while !worker.isStopping {
            guard let reader else {
                connect()
                continue
            }
            let idle = nextIdleWait()
            guard case .some(let job) = worker.nextJob(until: Date().addingTimeInterval(idle.timeInterval)) else { break }
            switch job {
            case let .scan(edge, user)?:
                scan(reader, edge: edge, misplacedIfEmpty: true, verifying: user)
            case .aura(let pattern)?:
                guard let module = administrator?.module else { break }
                do { try Self.show(pattern, on: module) } catch { lost(error) }
            case let .admin(id, request)?:
                lastActivity = .now
                runAdmin(id, request, on: reader)
                searchOrder = nil
                plannedAt = nil
            case .upkeep?:
                if let administrator { maintainLibrary(administrator) }
            case nil:
                if worker.config.pollInterval != nil { poll(reader) } else if !layoutPending { checkHealth(reader) }
                if let administrator { maintainLibrary(administrator) }
            }
        }
        reader?.close()
    }

    /// One opening attempt; on failure, waits out the backoff (doubling up to the maximum). A
    /// module that is not the paired one is tamper, told once per finding until a trusted
    /// module opens.
    private mutating func connect() {
        do {
            let opened: any FingerprintReader
            do { opened = try worker.open() } catch AdministrationError.untrustedModule(let finding) {
                reportTamper(finding.description)
                throw WorkerFailure(finding.description)
            }
            let administrator = opened as? Administrator
            if let administrator {
                // The occupied slots bound every Search; a module that cannot list them is not ready.
                do { _ = try administrator.module.readIndexTable() } catch {
                    opened.close()
                    throw error
                }
            }
            reader = opened
            fleetWorkRefused = false
            searchOrder = nil
            plannedAt = nil
            backoff = worker.config.backoffInitial
            reportedDown = false
            worker.report(.connected(opened.readerDescription))
            prepare(opened)
            // Opened, but its library changed outside fpmod: usable, and still tamper.
            if let finding = administrator?.finding, !finding.isTrusted { reportTamper(finding.description) } else { reportedTamper = nil }
            // Feedback only; a failing LED command shows up as a lost module on the next one.
            if worker.config.useAura, let module = administrator?.module { try? Self.show(.idle, on: module) }
        } catch {
            if let error = error as? ModuleError, error.confirmationCode == .wrongPassword {
                reportTamper(ModuleTamperReason.moduleSwapped.description)
            }
            if !reportedDown {
                reportedDown = true
                worker.report(.disconnected(String(describing: error)))
            }
            _ = worker.pause(until: Date().addingTimeInterval(backoff.timeInterval))
            backoff = min(backoff * 2, worker.config.backoffMaximum)
        }
    }

    private mutating func scan(_ reader: any FingerprintReader, edge: UInt64, misplacedIfEmpty: Bool, verifying user: String? = nil) {
        var timing = ScanTiming()
        timing.edge = edge
        var stages = IdentifyTiming()
        let outcome: ScanOutcome
        do {
            // A module searches in the planned order; a host reader searches its whole library in memory.
            let found = if let user { try reader.scanOnce(verifying: user, timing: &stages) } else {
                try reader.scanOnce(plan: administrator.map { plan(for: $0.module) }, timing: &stages)
            }
            switch found {
            case let .match(slot, score): outcome = .match(slot: slot, score: score)
            case .noMatch: outcome = .noMatch
            case .noFinger:
                if !misplacedIfEmpty { return }
                outcome = .misplaced
            case let .poorImage(code): outcome = .retryScan(code)
            }
        } catch let error as ModuleError where !reader.isDeviceLoss(error) && error.confirmationCode != nil {
            // The module answered with a refusal (a poor image, a failed search): press again.
            outcome = .retryScan(error.confirmationCode!)
        } catch where reader.isDeviceLoss(error) || error is ModuleError {
            worker.report(.scanned(.disconnected(String(describing: error)), timing))
            lost(error)
            return
        } catch {
            // The reader answered but the scan could not finish (the host matcher, the store):
            // no decision, the door stays locked.
            outcome = .failed(String(describing: error))
        }
        timing.captureStart = stages.captureStart
        timing.captureEnd = stages.captureEnd
        timing.extractEnd = stages.extractEnd
        timing.searchEnd = stages.searchEnd
        if timing.edge == 0 { timing.edge = stages.captureStart }
        if worker.config.pollInterval != nil { awaitingLift = true }
        worker.report(.scanned(outcome, timing))
        lastActivity = .now
        scansSincePlan += 1
    }

    private mutating func runAdmin(_ id: Int, _ request: AdminRequest, on reader: any FingerprintReader) {
        // The reader lives on between commands: what this one changes is put back after it.
        let defaultTimeout = reader.fingerTimeout
        let defaultCancel = reader.isCancelled
        reader.isCancelled = { [worker] in worker.shouldAbandon(requestID: id) }
        defer {
            reader.fingerTimeout = defaultTimeout
            reader.isCancelled = defaultCancel
            worker.finished(requestID: id)
        }
        do {
            switch request {
            case let .enroll(request):
                if let timeout = request.fingerTimeout { reader.fingerTimeout = timeout }
                let result = try reader.enroll(user: request.user, displayName: request.displayName, label: request.label,
                                               captures: request.captures ?? reader.defaultEnrollCaptures, admin: request.admin,
                                               duress: request.duress) { [worker] step in
                    worker.report(.adminProgress(requestID: id, line: step.controlLine))
                }
                worker.report(.adminDone(requestID: id, reply: [
                    "ok": true, "result": "enrolled", "user": .string(result.user), "label": .string(result.label),
                    "slot": JSONValue(result.slot), "captures": JSONValue(result.captures), "retries": JSONValue(result.retries),
                    "newUser": .bool(result.newUser), "duress": .bool(request.duress),
                ], enrolledSetChanged: true))
            case let .delete(user, label):
                let result = try reader.delete(user: user, label: label)
                worker.report(.adminDone(requestID: id, reply: [
                    "ok": true, "result": "deleted", "user": .string(result.user),
                    "slots": .array(result.fingers.map { JSONValue($0.slot) }),
                    "fingers": .array(result.fingers.map { ["label": .string($0.label), "slot": JSONValue($0.slot)] }),
                    "userRemoved": .bool(result.userRemoved),
                ], enrolledSetChanged: true))
            }
        } catch where reader.isDeviceLoss(error) {
            worker.report(.adminDone(requestID: id, reply: AdminReply.error(String(describing: error), code: "unavailable"),
                                     enrolledSetChanged: false))
            lost(error)
            return
        } catch {
            worker.report(.adminDone(requestID: id, reply: AdminReply.error(String(describing: error), code: AdminReply.code(for: error)),
                                     enrolledSetChanged: false))
        }
        prepare(reader)
        // The library changed: the module's next Search must see the new occupied range.
        guard let module = administrator?.module else { return }
        do { _ = try module.readIndexTable() } catch { lost(error) }
    }

    /// No touch line: the reader says whether a finger is there. A module's GenImg is the
    /// capture itself, so its scan polls; an image sensor first waits for a finger on its
    /// interrupt (poll(2), up to one poll interval), so no frame is read while nobody touches it.
    private mutating func poll(_ reader: any FingerprintReader) {
        if awaitingLift {
            do {
                if try !reader.fingerIsDown() {
                    awaitingLift = false
                    worker.report(.lifted)
                }
            } catch { lost(error) }
            return
        }
        if administrator == nil, let interval = worker.config.pollInterval {
            do {
                guard try reader.waitForFinger(deadline: .now + interval) else { return }
            } catch {
                return lost(error)
            }
        }
        scan(reader, edge: Monotonic.nanoseconds(), misplacedIfEmpty: false)
    }

    private mutating func checkHealth(_ reader: any FingerprintReader) {
        do { try reader.checkAlive() } catch { return lost(error) }
        // Fingers enrolled by another process since: ready before the next touch.
        prepare(reader)
    }

    /// The embedder's preparation for scans; a failure the next scan meets again is left to it.
    private mutating func prepare(_ reader: any FingerprintReader) {
        do { try worker.prepare(reader) } catch where reader.isDeviceLoss(error) { lost(error) } catch {}
    }

    mutating func lost(_ error: any Error) {
        reader?.close()
        reader = nil
        awaitingLift = false
        reportedDown = true
        worker.report(.disconnected(String(describing: error)))
        _ = worker.pause(until: Date().addingTimeInterval(backoff.timeInterval))
        backoff = min(backoff * 2, worker.config.backoffMaximum)
    }

    /// A module the opener opened on the way and did not hand back.
    static func close(_ module: FingerprintModule) {
        module.transport.close()
    }

    /// Raises `tamper` once per finding, not at every backoff round.
    private mutating func reportTamper(_ reason: String) {
        guard reportedTamper != reason else { return }
        reportedTamper = reason
        worker.report(.tamper(.other(reason)))
    }

    static func show(_ pattern: LedPattern, on module: FingerprintModule) throws {
        switch pattern {
        case .idle: try module.setAuraLED(.breathing, color: .blue, speed: 0x80, count: 0)
        case .match: try module.setAuraLED(.on, color: .green, speed: 0, count: 0)
        case .deny: try module.setAuraLED(.flashing, color: .red, speed: 0x20, count: 3)
        case .lockout: try module.setAuraLED(.on, color: .red, speed: 0, count: 0)
        }
    }
}

struct WorkerFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

enum AdminReply {
    static func error(_ message: String, code: String = "failed") -> [String: JSONValue] {
        ["ok": false, "error": .string(message), "code": .string(code)]
    }

    /// The reply's `code` for an admin command's failure (see `LockService.replyError`).
    static func code(for error: any Error) -> String {
        switch error {
        case StoreError.unknownUser, StoreError.unknownFinger, is NameError,
             AdministrationError.unknownFinger, AdministrationError.invalidCaptureCount:
            "usage"
        case AdministrationError.noFingerPlaced: "busy"
        case is AdministrationError, is StoreError: "refused"
        default: "failed"
        }
    }
}
