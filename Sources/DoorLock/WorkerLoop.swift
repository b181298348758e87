import AccessPolicy
import Administration
import FingerprintModule
import FingerprintProtocol
import Foundation
import JSONValue
import Posix
import SerialPort
import TemplateStore

/// The worker thread's state and loop; the module never leaves this thread.
struct WorkerLoop {
    let worker: ModuleWorker
    var module: FingerprintModule?
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
    /// The last scan or command: layout moves wait for a quiet spell after it.
    var lastActivity = ContinuousClock.now

    init(worker: ModuleWorker) {
        self.worker = worker
        backoff = worker.config.backoffInitial
    }

    mutating func run() {
        while !worker.isStopping {
            guard let module else {
                connect()
                continue
            }
            let idle = nextIdleWait()
            guard case .some(let job) = worker.nextJob(until: Date().addingTimeInterval(idle.timeInterval)) else { break }
            switch job {
            case .scan(let edge)?:
                scan(module, edge: edge, misplacedIfEmpty: true)
            case .aura(let pattern)?:
                do { try Self.show(pattern, on: module) } catch { lost(error) }
            case let .admin(id, request)?:
                lastActivity = .now
                runAdmin(id, request, on: module)
                searchOrder = nil
                plannedAt = nil
            case nil:
                if worker.config.pollInterval != nil { poll(module) } else if !layoutPending { checkHealth(module) }
                if let module = self.module { maintainLibrary(module) }
            }
        }
        if let module { Self.close(module) }
    }

    /// One opening attempt through the one opener; on failure, waits out the backoff
    /// (doubling up to the maximum). A module that is not the paired one is tamper, told
    /// once per finding until a trusted module opens.
    private mutating func connect() {
        do {
            let administrator: Administrator
            do { administrator = try worker.open() } catch AdministrationError.untrustedModule(let finding) {
                reportTamper(finding.description)
                throw WorkerFailure(finding.description)
            }
            let opened = administrator.module
            // The occupied slots bound every Search; a module that cannot list them is not ready.
            do { _ = try opened.readIndexTable() } catch {
                Self.close(opened)
                throw error
            }
            module = opened
            searchOrder = nil
            plannedAt = nil
            backoff = worker.config.backoffInitial
            reportedDown = false
            worker.report(.connected(family: opened.family?.rawValue ?? "unknown", capacity: opened.capacity))
            // Opened, but its library changed outside fpmod: usable, and still tamper.
            if administrator.finding.isTrusted { reportedTamper = nil } else { reportTamper(administrator.finding.description) }
            // Feedback only; a failing LED command shows up as a lost module on the next one.
            if worker.config.useAura { try? Self.show(.idle, on: opened) }
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

    private mutating func scan(_ module: FingerprintModule, edge: UInt64, misplacedIfEmpty: Bool) {
        var timing = ScanTiming()
        timing.edge = edge
        var stages = IdentifyTiming()
        let outcome: ScanOutcome
        do {
            switch try module.identify(plan: plan(for: module), timing: &stages) {
            case let .match(slot, score): outcome = .match(slot: slot, score: score)
            case .noMatch: outcome = .noMatch
            case .noFinger:
                if !misplacedIfEmpty { return }
                outcome = .misplaced
            case let .poorImage(code): outcome = .retryScan(code)
            }
        } catch let error where !error.isTransportFailure && error.confirmationCode != nil {
            outcome = .retryScan(error.confirmationCode!)
        } catch {
            worker.report(.scanned(.disconnected(error.description), timing))
            lost(error)
            return
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

    private mutating func runAdmin(_ id: Int, _ request: AdminRequest, on module: FingerprintModule) {
        guard let store = worker.config.store else {
            return worker.report(.adminDone(requestID: id, reply: AdminReply.error("no store"), enrolledSetChanged: false))
        }
        let administrator = Administrator(module: module, store: store)
        administrator.isCancelled = { [worker] in worker.shouldAbandon(requestID: id) }
        defer { worker.finished(requestID: id) }
        do {
            switch request {
            case let .enroll(request):
                if let timeout = request.fingerTimeout { administrator.fingerTimeout = timeout }
                let result = try administrator.enroll(user: request.user, displayName: request.displayName, label: request.label,
                                                      captures: request.captures, admin: request.admin,
                                                      duress: request.duress) { [worker] step in
                    worker.report(.adminProgress(requestID: id, line: ["progress": .string(step.description), "status": .string(step.status)]))
                }
                worker.report(.adminDone(requestID: id, reply: [
                    "ok": true, "result": "enrolled", "user": .string(result.user), "label": .string(result.label),
                    "slot": JSONValue(result.slot), "captures": JSONValue(result.captures), "retries": JSONValue(result.retries),
                    "newUser": .bool(result.newUser), "duress": .bool(request.duress),
                ], enrolledSetChanged: true))
            case let .delete(user, label):
                let result = try administrator.delete(user: user, label: label)
                worker.report(.adminDone(requestID: id, reply: [
                    "ok": true, "result": "deleted", "user": .string(result.user),
                    "slots": .array(result.fingers.map { JSONValue($0.slot) }),
                    "fingers": .array(result.fingers.map { ["label": .string($0.label), "slot": JSONValue($0.slot)] }),
                    "userRemoved": .bool(result.userRemoved),
                ], enrolledSetChanged: true))
            }
        } catch let error as ModuleError where error.isTransportFailure {
            worker.report(.adminDone(requestID: id, reply: AdminReply.error(error.description, code: "unavailable"), enrolledSetChanged: false))
            lost(error)
            return
        } catch {
            worker.report(.adminDone(requestID: id, reply: AdminReply.error(String(describing: error), code: AdminReply.code(for: error)),
                                     enrolledSetChanged: false))
        }
        // The library changed: the next Search must see the new occupied range.
        do { _ = try module.readIndexTable() } catch { lost(error) }
    }

    /// No touch line: GenImg says whether a finger is there.
    private mutating func poll(_ module: FingerprintModule) {
        if awaitingLift {
            do {
                if try module.captureImage() == .noFinger {
                    awaitingLift = false
                    worker.report(.lifted)
                }
            } catch { lost(error) }
            return
        }
        scan(module, edge: Monotonic.nanoseconds(), misplacedIfEmpty: false)
    }

    private mutating func checkHealth(_ module: FingerprintModule) {
        do { try module.handshake() } catch { lost(error) }
    }

    mutating func lost(_ error: any Error) {
        if let module { Self.close(module) }
        module = nil
        awaitingLift = false
        reportedDown = true
        worker.report(.disconnected(String(describing: error)))
        _ = worker.pause(until: Date().addingTimeInterval(backoff.timeInterval))
        backoff = min(backoff * 2, worker.config.backoffMaximum)
    }

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
        case StoreError.unknownUser, StoreError.unknownFinger, StoreError.invalidName, StoreError.invalidLabel,
             AdministrationError.unknownFinger, AdministrationError.invalidCaptureCount:
            "usage"
        case AdministrationError.noFingerPlaced: "busy"
        case is AdministrationError, is StoreError: "refused"
        default: "failed"
        }
    }
}
