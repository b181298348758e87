import Foundation
import JSONValue
import Posix
import Synchronization

/// Reads the service's events socket on a thread of its own for the whole soak, connecting again
/// after each restart, and hands each decision to whoever waits for one. Also counts every event
/// by name, so the audit log can be checked against what the service announced.
final class SoakEventTap: Sendable {
    /// A decision the service announced: the door opened (for `user`) or refused (`name` says why).
    struct Decision: Sendable {
        var name: String
        var user: String?
        var at: ContinuousClock.Instant
        /// The service's own stamp from capture start to the decision, when it gave one.
        var serviceMilliseconds: Double?
        var opened: Bool { name == "unlocked" }
    }

    /// The events that end a presentation: `unlocked`, or one of the refusals (DenyReason's
    /// public names).
    static let decisionNames: Set<String> = [
        "unlocked", "no-match", "lockout", "lockout-permanent", "pin-required", "pin-wrong", "admin-required", "error",
        "pin-lockout", "pin-lockout-permanent", "fingerprint-disabled", "pin-only", "verification-required",
        "match-required", "module-unavailable", "remote-refused", "card-unknown", "card-disabled", "card-lockout",
        "card-lockout-permanent", "not-accepted", "factor-refused", "not-now", "passback",
    ]

    private struct State {
        var decisions: [Decision] = []
        var counts: [String: Int] = [:]
        var connections = 0
        var stopped = false
    }
    private let state = Mutex(State())
    private let path: String

    init(path: String) {
        self.path = path
        Thread.detachNewThread { [self] in self.run() }
    }

    func stop() { state.withLock { $0.stopped = true } }

    /// Forgets decisions announced so far (a late one must not answer the next presentation).
    func discardPending() { state.withLock { $0.decisions.removeAll() } }

    /// The next decision announced before `deadline`, or nil.
    func nextDecision(deadline: ContinuousClock.Instant) -> Decision? {
        while ContinuousClock.now < deadline {
            if let decision = state.withLock({ $0.decisions.isEmpty ? nil : $0.decisions.removeFirst() }) { return decision }
            usleep(2_000)
        }
        return nil
    }

    /// Events seen so far, by name.
    var counts: [String: Int] { state.withLock { $0.counts } }
    /// How many times the socket was connected (once per service start when all went well).
    var connections: Int { state.withLock { $0.connections } }

    private func run() {
        while !state.withLock({ $0.stopped }) {
            guard let connection = try? UnixConnection.connect(path: path) else {
                usleep(20_000)
                continue
            }
            state.withLock { $0.connections += 1 }
            while !state.withLock({ $0.stopped }) {
                guard let line = try? connection.readLine(deadline: .now + .milliseconds(200)) else {
                    if connection.isClosedByPeer { break }
                    continue
                }
                guard case .object(let event)? = try? JSONValue(parsing: line), let name = event["event"]?.stringValue else { continue }
                let now = ContinuousClock.now
                state.withLock { state in
                    state.counts[name, default: 0] += 1
                    guard Self.decisionNames.contains(name) else { return }
                    state.decisions.append(Decision(name: name, user: event["user"]?.stringValue, at: now,
                                                    serviceMilliseconds: event["latencyMs"]?["decision"]?.numberValue))
                }
            }
            connection.close()
        }
    }
}
