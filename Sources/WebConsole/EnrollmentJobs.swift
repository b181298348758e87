import Administration
import ConsoleHTTP
import DoorLock
import Foundation
import JSONValue
import ServiceClient
import TemplateStore

/// Live enrollment: a POST starts one through the service's control socket on a thread of its
/// own, and the page follows its steps as Server-Sent Events. One at a time (the reader takes
/// one finger at a time); a finished job is kept a few minutes so a page that reconnects sees
/// how it ended.
final class EnrollmentJobs: @unchecked Sendable {
    final class Job: @unchecked Sendable {
        let id: String
        let started = ContinuousClock.now
        private let condition = NSCondition()
        // Guarded by `condition`.
        private var events: [String] = []
        private var finished = false

        init(id: String) { self.id = id }

        func append(_ event: String, final: Bool = false) {
            condition.lock()
            events.append(event)
            if final { finished = true }
            condition.broadcast()
            condition.unlock()
        }

        var isFinished: Bool {
            condition.lock()
            defer { condition.unlock() }
            return finished
        }

        /// The events from `index` on, waiting until `deadline` for one; nil when there will be no more.
        func events(from index: Int, deadline: Date) -> [String]? {
            condition.lock()
            defer { condition.unlock() }
            while events.count <= index && !finished {
                if !condition.wait(until: deadline) { break }
            }
            if events.count > index { return Array(events[index...]) }
            return finished ? nil : []
        }
    }

    private let lock = NSLock()
    // Guarded by `lock`.
    private var jobs: [String: Job] = [:]

    func start(_ request: EnrollRequest, context: ConsoleContext, caller: Caller) throws(ConsoleFailure) -> Job {
        lock.lock()
        defer { lock.unlock() }
        jobs = jobs.filter { !$0.value.isFinished || ContinuousClock.now - $0.value.started < .seconds(600) }
        if jobs.values.contains(where: { !$0.isFinished }) {
            throw ConsoleFailure(409, "An enrollment is already running.", fix: "Wait for it to finish (its page shows each touch), then start this one.")
        }
        let job = Job(id: Self.newID())
        jobs[job.id] = job
        let thread = Thread {
            Self.run(request, job: job, context: context, caller: caller)
        }
        thread.name = "console-enroll"
        thread.start()
        return job
    }

    func job(_ id: String) -> Job? {
        lock.lock()
        defer { lock.unlock() }
        return jobs[id]
    }

    private static func run(_ request: EnrollRequest, job: Job, context: ConsoleContext, caller: Caller) {
        let who = "\(request.user.text)'s \(request.label.text)"
        do {
            guard let service = try context.serviceConnection() else {
                return job.append(EventSocketStream.event("result", JSONValue.object(["ok": false, "message": "The lock service is not running."]).encoded), final: true)
            }
            caller.audit(context.store, "started enrolling \(who)", user: request.user.text)
            let reply = try service.send(.enroll(request), lineTimeout: .seconds(90), fingerStep: { step in
                job.append(EventSocketStream.event("progress", progressJSON(step).encoded))
            }, progress: { line in
                job.append(EventSocketStream.event("progress", JSONValue.object(["prompt": .string(line)]).encoded))
            })
            let ok = reply["ok"]?.boolValue == true
            let message = ok ? "Enrolled \(who)." : (reply["error"]?.stringValue ?? "The enrollment did not finish.")
            job.append(EventSocketStream.event("result", JSONValue.object([
                "ok": .bool(ok), "message": .string(message), "name": .string(request.user.text), "label": .string(request.label.text),
            ]).encoded), final: true)
        } catch {
            job.append(EventSocketStream.event("result", JSONValue.object(["ok": false, "message": .string("\(error)")]).encoded), final: true)
        }
    }

    /// A step as the page shows it: which touch of how many, the prompt, and why a touch was refused.
    static func progressJSON(_ step: EnrollProgress) -> JSONValue {
        var object = step.controlLine
        object["prompt"] = .string(step.description)
        switch step {
        case .placeFinger(let capture, let total), .stagePassed(let capture, let total):
            object["touch"] = JSONValue(capture)
            object["of"] = JSONValue(total)
        case .retryScan(let capture, let reason):
            object["touch"] = JSONValue(capture)
            object["refused"] = .string(reason)
        case .touchQuality(let capture, let score):
            object["touch"] = JSONValue(capture)
            object["quality"] = JSONValue(score)
        case .touchesMatchedNoOther(let touches):
            object["matchedNoOther"] = .array(touches.map { JSONValue($0) })
        default:
            break
        }
        return .object(object)
    }

    private static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}

/// A job's events as an HTTP stream.
final class EnrollmentStream: HTTPBodyStream, @unchecked Sendable {
    private let job: EnrollmentJobs.Job
    private let lock = NSLock()
    // Guarded by `lock`.
    private var index = 0
    private var greeted = false
    private var closed = false
    private var lastSent = ContinuousClock.now

    init(job: EnrollmentJobs.Job) { self.job = job }

    func next(deadline: ContinuousClock.Instant) -> [UInt8]? {
        lock.lock()
        if closed { lock.unlock(); return nil }
        if !greeted {
            greeted = true
            lock.unlock()
            return Array("retry: 3000\n\n".utf8)
        }
        let from = index
        lock.unlock()
        let left = deadline - .now
        let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
        // Never a zero wait: the server would call again at once and spin.
        let wait = Date().addingTimeInterval(min(1, max(0.2, seconds)))
        guard let events = job.events(from: from, deadline: wait) else { return nil }
        lock.lock()
        defer { lock.unlock() }
        index = from + events.count
        if events.isEmpty {
            guard ContinuousClock.now - lastSent >= EventSocketStream.keepAliveInterval else { return [] }
            lastSent = .now
            return Array(": keep-alive\n\n".utf8)
        }
        lastSent = .now
        return Array(events.joined().utf8)
    }

    func close() {
        lock.lock()
        closed = true
        lock.unlock()
    }
}

/// `/api/v1/enrollments`.
struct EnrollAPI {
    let context: ConsoleContext
    let jobs: EnrollmentJobs

    func start(_ request: HTTPRequest, _ caller: Caller) throws(ConsoleFailure) -> HTTPResponse {
        try caller.requireAdmin()
        let body = try JSONBody(request)
        let name: UserName, label: FingerLabel
        do {
            name = try UserName(validating: try body.string("name"))
            label = try FingerLabel(validating: try body.optionalString("label") ?? "right-index")
        } catch let failure as ConsoleFailure {
            throw failure
        } catch {
            throw ConsoleFailure.badRequest("\(error)")
        }
        var enroll = EnrollRequest(user: name, label: label)
        enroll.admin = try body.bool("admin", default: false)
        _ = try context.requireService(for: "enrolling")
        let job = try jobs.start(enroll, context: context, caller: caller)
        return Reply.json(["id": .string(job.id)], status: 202)
    }

    func events(id: String) throws(ConsoleFailure) -> HTTPResponse {
        guard let job = jobs.job(id) else { throw ConsoleFailure(404, "No enrollment \(id) is known here (finished ones are kept 10 minutes).") }
        return .eventStream(EnrollmentStream(job: job))
    }
}
