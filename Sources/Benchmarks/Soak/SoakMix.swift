import ModuleSimulator

/// What the soak's door sees next, drawn from a seeded generator so a run can be replayed: the
/// traffic of a busy door and, on a schedule of its own, the faults a real installation meets.
/// Pure: no processes, no clock; `SoakBench` acts on what it draws.
public struct SoakMix: Sendable {
    /// One thing a person or an administrator does at the door.
    public enum Action: String, CaseIterable, Sendable {
        /// A regular (enrolled) finger: the door must open for that person and nobody else.
        case regular
        /// A finger enrolled in nobody's name: the door must stay shut.
        case stranger
        /// A finger whose user was deleted during the run: the door must stay shut.
        case deletedFinger = "deleted finger"
        /// The right PIN of a user who has one.
        case pinRight = "right PIN"
        /// A wrong PIN named for a user who has one: the door must stay shut.
        case pinWrong = "wrong PIN"
        /// `status` on the control socket.
        case status
        /// The newest audit rows, read from the store by another process (as `fpmod log` does).
        case logQuery = "log query"
        /// The web console's status and audit log pages' API, over HTTPS with a bearer token.
        case consoleQuery = "console query"
        /// A new user enrolled through the service (as the console or `fpmod enroll` does).
        case enroll
        /// A user deleted through the service.
        case delete
    }

    /// One fault injected while the traffic runs.
    public enum Fault: String, CaseIterable, Sendable {
        /// The module's next reply has a checksum byte flipped.
        case corruptReply = "damaged reply"
        /// The module's next reply is lost.
        case lostReply = "lost reply"
        /// Junk bytes before the module's next reply.
        case garbage = "junk before a reply"
        /// The serial device disappears (the module simulator's process ends) and comes back.
        case deviceVanishes = "serial device gone and back"
        /// Another process holds the SQLite file's write lock for a moment.
        case storeLocked = "store locked by another process"
        /// The service is killed with SIGKILL and started again.
        case serviceKilled = "service killed and restarted"
    }

    /// How often each action comes, out of the sum: mostly regulars, as at a real door.
    static let weights: [(Action, Int)] = [
        (.regular, 58), (.stranger, 10), (.deletedFinger, 3), (.pinRight, 8), (.pinWrong, 3),
        (.status, 6), (.logQuery, 5), (.consoleQuery, 3), (.enroll, 2), (.delete, 2),
    ]
    /// The faults that need no restart come in turn, each once per round, in a seeded order.
    static let lightFaults: [Fault] = [.corruptReply, .lostReply, .garbage, .deviceVanishes, .storeLocked]

    private var random: SeededRandom
    private var round: [Fault] = []

    public init(seed: UInt64) { random = SeededRandom(seed: seed) }

    /// The next action; `possible` says which make sense now (no delete without a spare user,
    /// no deleted finger before a delete).
    public mutating func nextAction(possible: (Action) -> Bool) -> Action {
        let candidates = Self.weights.filter { possible($0.0) }
        let total = candidates.reduce(0) { $0 + $1.1 }
        guard total > 0 else { return .status }
        var pick = Int(random.next() % UInt64(total))
        for (action, weight) in candidates {
            if pick < weight { return action }
            pick -= weight
        }
        return candidates[candidates.count - 1].0
    }

    /// The next fault that needs no restart of the service: every one of them once per round.
    public mutating func nextLightFault() -> Fault {
        if round.isEmpty { round = Self.lightFaults.shuffled(using: &random) }
        return round.removeFirst()
    }

    /// A whole number in `range`, from the same seeded stream.
    public mutating func number(in range: ClosedRange<Int>) -> Int {
        Int.random(in: range, using: &random)
    }

    /// When the service is killed (seconds into the run): once in a short run, at mid-run;
    /// twice in a run of 30 minutes or more, at a third and two thirds, so the stretches
    /// between restarts are long enough to show growth.
    public static func killTimes(duration: Double) -> [Double] {
        duration >= 1_800 ? [duration / 3, 2 * duration / 3] : [duration / 2]
    }
}
