import ConsoleAuth
import DoorLock
import Foundation
import Glibc
import JSONValue
import Posix
import TemplateStore

/// `fpmod bench soak`: a busy door for a chosen time, on real processes (`fpmod sim` and
/// `fpmod run`), with the faults a real installation meets injected as it runs. Counts every
/// decision against what it should have been, samples the service's memory, descriptors,
/// threads and write-ahead log, and checks the audit log against the events the service
/// announced. `SoakMix` draws the traffic and the faults; `SoakRig` owns the processes;
/// `SoakReport` judges.
public enum SoakBench {
    public struct Options: Sendable {
        /// Seconds of traffic.
        public var duration: Double
        /// Seconds between report rows (default: a sixth of the run, 20 s to 10 min).
        public var interval: Double?
        public var seed: UInt64
        /// Regulars enrolled before the traffic starts.
        public var users = 8
        /// Seconds between faults that need no restart.
        public var faultEvery = 15.0

        public init(duration: Double, interval: Double? = nil, seed: UInt64 = 27) {
            self.duration = duration
            self.interval = interval
            self.seed = seed
        }

        var reportInterval: Double { interval ?? min(600, max(20, duration / 6)) }
    }

    /// Users with a PIN: the first ones, never deleted, so PIN traffic always has someone.
    static let usersWithPIN = 3

    public static func run(executable: String, options: Options, progress: @escaping (String) -> Void) -> Result<SoakReport, BenchFailure> {
        let executable = URL(fileURLWithPath: executable).resolvingSymlinksInPath().path
        let directory = NSTemporaryDirectory() + "fpmod-soak-\(CurrentProcess.id)"
        let rig: SoakRig
        do { rig = try SoakRig(executable: executable, directory: directory) } catch { return .failure(error) }
        defer {
            rig.shutDown()
            try? FileManager.default.removeItem(atPath: directory)
        }
        do {
            var door = try Door(rig: rig, options: options, progress: progress)
            return .success(try door.soak())
        } catch let failure as BenchFailure {
            return .failure(failure)
        } catch {
            return .failure(BenchFailure("\(error)"))
        }
    }

    /// The run's state: who is enrolled as far as the soak was told, and what it counted.
    struct Door {
        let rig: SoakRig
        let options: Options
        let progress: (String) -> Void
        let store: TemplateStore
        let tap: SoakEventTap
        var mix: SoakMix
        var ledger = SoakLedger()
        var regulars: [String] = []
        var deleted: [String] = []
        var pins: [String: String] = [:]
        var nextUser = 1
        /// A viewer's bearer token for the console's API.
        let consoleToken: String

        init(rig: SoakRig, options: Options, progress: @escaping (String) -> Void) throws {
            self.rig = rig
            self.options = options
            self.progress = progress
            mix = SoakMix(seed: options.seed)
            store = try TemplateStore(databasePath: rig.database, keyPath: rig.key)
            consoleToken = try BearerTokens(store: store).create(name: "soak", role: .viewer, by: "fpmod bench soak")
            tap = SoakEventTap(path: rig.eventsSocket)
        }

        static func finger(of user: String) -> String { user + "-finger" }

        mutating func soak() throws -> SoakReport {
            try rig.startSimulator()
            try startService()
            progress("fpmod bench soak: enrolling \(options.users) regulars through the service…")
            for _ in 0..<options.users { enrollNewUser(counted: false) }
            guard regulars.count >= SoakBench.usersWithPIN else {
                throw BenchFailure("the service enrolled \(regulars.count) of \(options.users) regulars before the soak (see \(rig.serviceLog))")
            }
            for (index, user) in regulars.prefix(SoakBench.usersWithPIN).enumerated() {
                let pin = String(730_418 + index * 104_729)
                try store.setPIN(pin, for: user)
                pins[user] = pin
            }
            let startID = try store.newestAuditID()
            let announcedBefore = tap.counts
            progress("fpmod bench soak: \(SoakReport.clock(options.duration)) of traffic with faults, a row every \(SoakReport.clock(options.reportInterval))…")
            let start = ContinuousClock.now
            func elapsed() -> Double { DurationText.seconds(ContinuousClock.now - start) }
            var nextRow = options.reportInterval
            var nextFault = options.faultEvery
            var kills = SoakMix.killTimes(duration: options.duration)
            while elapsed() < options.duration {
                if let kill = kills.first, elapsed() >= kill {
                    kills.removeFirst()
                    try restartAfterKill()
                } else if elapsed() >= nextFault {
                    nextFault += options.faultEvery
                    try inject(mix.nextLightFault())
                }
                step()
                if elapsed() >= nextRow || elapsed() >= options.duration {
                    let at = min(elapsed(), options.duration)
                    ledger.close(at: at, sample: sample())
                    let last = ledger.closed[ledger.closed.count - 1]
                    progress("fpmod bench soak: \(SoakReport.clock(at)): \(last.decisions) decisions, \(last.wrong) wrong, \(last.missed) missed")
                    nextRow += options.reportInterval
                }
                usleep(UInt32(mix.number(in: 50...250)) * 1000)
            }
            if ledger.current.decisions > 0 || ledger.closed.isEmpty { ledger.close(at: elapsed(), sample: sample()) }
            // Stopped as systemd stops it, so every record it holds is written before counting.
            rig.stopService()
            tap.stop()
            let announced = tap.counts.merging(announcedBefore) { $0 - $1 }
            let audited = try store.auditCounts(afterID: startID)
            return SoakReport(ledger: ledger, duration: options.duration, announced: announced, audited: audited,
                              serviceRuns: rig.serviceStarts, seed: options.seed)
        }

        // MARK: - Traffic

        mutating func step() {
            let regulars = regulars, deleted = deleted
            let action = mix.nextAction { action in
                switch action {
                case .regular: !regulars.isEmpty
                case .deletedFinger: !deleted.isEmpty
                case .delete: regulars.count > SoakBench.usersWithPIN + 2
                default: true
                }
            }
            switch action {
            case .regular:
                present(finger: Self.finger(of: regulars[mix.number(in: 0...regulars.count - 1)]), expect: .opens(for: nil))
            case .stranger:
                present(finger: "stranger-\(mix.number(in: 1...500))", expect: .staysShut)
            case .deletedFinger:
                present(finger: Self.finger(of: deleted[mix.number(in: 0...deleted.count - 1)]), expect: .staysShut)
            case .pinRight, .pinWrong:
                let users = pins.keys.sorted()
                let user = users[mix.number(in: 0...users.count - 1)]
                let right = action == .pinRight
                presentPIN(user: user, pin: right ? pins[user]! : "000" + String(mix.number(in: 100...999)), right: right)
            case .status:
                ledger.query(ok: rig.request(.status)?["ok"]?.boolValue == true)
            case .logQuery:
                ledger.query(ok: (try? store.auditEntries(limit: 50)) != nil)
            case .consoleQuery:
                if let ok = rig.consoleRequest(mix.number(in: 0...1) == 0 ? "status" : "log?limit=50", token: consoleToken) { ledger.query(ok: ok) }
            case .enroll:
                enrollNewUser(counted: true)
            case .delete:
                deleteUser(regulars[mix.number(in: SoakBench.usersWithPIN...regulars.count - 1)])
            }
        }

        enum Expectation {
            case opens(for: String?)
            case staysShut
        }

        /// One touch on the simulator and the decision the service announces for it.
        mutating func present(finger: String, expect: Expectation) {
            tap.discardPending()
            let start = ContinuousClock.now
            // Placed until the decision, then lifted: a real finger stays for several polls of
            // the sensor, and the service waits for the lift before it scans again.
            guard rig.simulatorLine("place \(finger)") != nil else {
                if case .opens = expect { ledger.missed() }
                return
            }
            guard let decision = tap.nextDecision(deadline: start + .seconds(8)) else {
                // Never decided (the reader was away): the finger is taken off so it cannot
                // answer a later presentation.
                rig.simulatorLine("lift")
                if case .opens = expect { ledger.missed() }
                settle()
                return
            }
            let latency = Self.nanoseconds(decision.at - start)
            rig.liftAndWaitForPoll()
            switch expect {
            case .opens:
                let user = String(finger.dropLast("-finger".count))
                if !decision.opened {
                    ledger.decided(latency: latency)
                    ledger.missed()
                } else if decision.user == user {
                    ledger.decided(latency: latency)
                } else {
                    ledger.wrong("\(finger) opened the door as \(decision.user ?? "nobody")", latency: latency)
                }
            case .staysShut:
                if decision.opened {
                    ledger.wrong("\(finger) (\(deleted.contains(String(finger.dropLast("-finger".count))) ? "deleted" : "enrolled nowhere")) opened the door as \(decision.user ?? "nobody")", latency: latency)
                } else {
                    ledger.decided(latency: latency)
                }
            }
        }

        /// A PIN on the control socket (as a keypad's or a kiosk's entry arrives).
        mutating func presentPIN(user: String, pin: String, right: Bool) {
            tap.discardPending()
            let start = ContinuousClock.now
            let reply = rig.request(.pin(user: user, pin: pin), timeout: .seconds(8))
            let latency = Self.nanoseconds(ContinuousClock.now - start)
            // Its event too, so it cannot answer the next touch.
            _ = tap.nextDecision(deadline: .now + .seconds(2))
            guard let result = reply?["result"]?.stringValue else {
                if right { ledger.missed() }
                return
            }
            switch (right, result == "unlocked") {
            case (true, true), (false, false): ledger.decided(latency: latency)
            case (true, false):
                ledger.decided(latency: latency)
                ledger.missed()
            case (false, true): ledger.wrong("a wrong PIN for \(user) opened the door", latency: latency)
            }
        }

        /// Waits until the simulator holds no finger and the service has been quiet a moment.
        func settle() {
            usleep(300_000)
            tap.discardPending()
        }

        // MARK: - Administration

        mutating func enrollNewUser(counted: Bool) {
            let user = "soak-user-\(nextUser)"
            nextUser += 1
            let ok = rig.enroll(user: user, finger: Self.finger(of: user))
            settle()
            // A reply lost to a fault is no proof either way: the store says. A user row alone is
            // not an enrollment (an enrollment cut short keeps no finger), so only a user with a
            // finger is expected to open the door from now on.
            if ((try? store.fingers(of: user)) ?? []).isEmpty {
                if counted { ledger.administration(failed: true) }
                return
            }
            regulars.append(user)
            if counted { ledger.administration(enrolled: ok, failed: !ok) }
        }

        mutating func deleteUser(_ user: String) {
            let reply = rig.request(.delete(user: user, label: nil), timeout: .seconds(20))
            if reply?["ok"]?.boolValue == true {
                regulars.removeAll { $0 == user }
                deleted.append(user)
                ledger.administration(deleted: true)
            } else {
                ledger.administration(failed: true)
                // Unconfirmed: their finger is neither expected to open nor to stay shut any
                // more, so it is left out of the traffic.
                regulars.removeAll { $0 == user }
            }
        }

        // MARK: - Faults

        mutating func inject(_ fault: SoakMix.Fault) throws {
            if fault != .storeLocked { ledger.fault(fault) }
            switch fault {
            case .corruptReply: rig.simulatorLine("fault corrupt")
            case .lostReply: rig.simulatorLine("fault drop")
            case .garbage: rig.simulatorLine("fault garbage")
            case .deviceVanishes:
                rig.stopSimulator()
                usleep(UInt32(mix.number(in: 500...2_500)) * 1000)
                try rig.startSimulator()
                waitForModule()
            case .storeLocked:
                if rig.holdStoreLock(seconds: Double(mix.number(in: 1...3))) { ledger.fault(fault) } else { ledger.skipped(fault) }
            case .serviceKilled:
                try restartAfterKill()
            }
        }

        mutating func restartAfterKill() throws {
            ledger.fault(.serviceKilled)
            rig.killService()
            try startService()
        }

        /// Starts the service and waits until its events reach the tap again.
        func startService() throws {
            let connections = tap.connections
            try rig.startService()
            let deadline = ContinuousClock.now + .seconds(10)
            while tap.connections == connections, ContinuousClock.now < deadline { usleep(10_000) }
        }

        /// Until the service says its module is connected again (30 s at most; the traffic
        /// meanwhile would only count misses).
        func waitForModule() {
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline {
                if rig.request(.status, timeout: .seconds(2))?["module"] == .string("connected") { return }
                usleep(100_000)
            }
        }

        func sample() -> SoakLedger.Sample? {
            guard let resources = rig.serviceResources() else { return nil }
            return SoakLedger.Sample(rssKiB: resources.rssKiB, descriptors: resources.descriptors, threads: resources.threads,
                                     walBytes: rig.walBytes(), auditRows: (try? store.newestAuditID()) ?? 0, serviceRun: rig.serviceStarts)
        }

        static func nanoseconds(_ duration: Duration) -> Int64 {
            duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
        }
    }
}
