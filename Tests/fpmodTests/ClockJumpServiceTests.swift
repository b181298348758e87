import Foundation
import Testing

/// Issue 27, item 5, with the real binary: the wall clock stepped a day forward (libfaketime,
/// which moves `Date()` but, with FAKETIME_DONT_FAKE_MONOTONIC, not CLOCK_BOOTTIME) neither
/// ends a lockout within the run nor across a restart of the service in the same boot (with
/// another day's step while it was down); each step is logged once and published with both
/// clocks.
@Suite(.serialized)
struct ClockJumpServiceTests {
    typealias RunningService = ServiceControlCLITests.RunningService
    typealias EventTap = NFCServiceTests.EventTap

    /// libfaketime's library. CI installs it (tools/install-deps.sh lists `faketime`): missing,
    /// the test fails saying so rather than skipping.
    static func libfaketime() throws -> String {
        let roots = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? []).sorted()
            .map { "/usr/lib/\($0)/faketime/libfaketime.so.1" } + ["/usr/lib/faketime/libfaketime.so.1"]
        return try #require(roots.first { FileManager.default.fileExists(atPath: $0) },
                            "libfaketime is not installed: apt-get install faketime (tools/install-deps.sh lists it)")
    }

    /// Through `/usr/bin/env`: libfaketime, loaded into the first process of its kind, creates
    /// its shared memory and `setenv`s FAKETIME_SHARED from its constructor, after which a Swift
    /// program started directly sees no arguments (seen with Swift 6.3: its runtime apparently
    /// finds argv by walking back from `environ`, which that setenv moved). Started by a
    /// program already under libfaketime (as the `faketime` command does it), the variable is
    /// inherited and nothing moves.
    static let launcher = "/usr/bin/env"

    /// libfaketime's shared memory of a process it was first loaded into (env's pid, kept by
    /// the service it execs): nobody else removes it.
    static func removeSharedMemory(of pid: Int32) {
        for name in ["/dev/shm/faketime_shm_\(pid)", "/dev/shm/sem.faketime_sem_\(pid)"] {
            try? FileManager.default.removeItem(atPath: name)
        }
    }

    static let policy = #"{"relayPulseSeconds": 0.3, "pinLockout": {"timedLockoutSeconds": 600}}"#
    static let stepLine = "wall clock stepped forward 1 d 0 h 0 min; lockouts and grace windows count on the monotonic clock"

    @Test func aWallClockADayAheadEndsNoLockoutWithinARunNorAcrossARestart() throws {
        let cli = CLI()
        let timestamps = cli.directory + "/faketime"
        try "+0\n".write(toFile: timestamps, atomically: true, encoding: .utf8)
        let environment = ["LD_PRELOAD": try Self.libfaketime(), "FAKETIME_DONT_FAKE_MONOTONIC": "1",
                           "FAKETIME_TIMESTAMP_FILE": timestamps, "FAKETIME_NO_CACHE": "1"]

        let first = try RunningService(cli, policy: Self.policy, environment: environment, launcher: Self.launcher)
        defer {
            first.stop()
            Self.removeSharedMemory(of: first.process.processIdentifier)
        }
        let events = try EventTap(first.sockets + "/events.sock")
        let control = first.sockets + "/control.sock"
        var last = ""
        for _ in 1...5 { last = try CLI.unixRequest(path: control, line: "pin 0000") }
        #expect(last.contains("PIN entry is now locked"), "\(last)")

        try "+1d\n".write(toFile: timestamps, atomically: true, encoding: .utf8)
        try expectLockedOut(cli, first)
        // The next decision sees the step: one log line, one event with both clocks.
        #expect(try CLI.unixRequest(path: control, line: "pin 0000").contains("PIN entry locked"))
        let stepped = try events.next("wall-clock-stepped")
        #expect(stepped["seconds"] as? Double == 86_400, "\(stepped)")
        #expect(stepped["wall-offset"] as? Double == 86_400, "\(stepped)")
        #expect(stepped["policy-clock"] is Double && stepped["monotonic"] is Double, "\(stepped)")
        // The service's Date() follows libfaketime: the event's wall time is a day ahead.
        let time = try #require(stepped["time"] as? String)
        let wall = try #require(ISO8601DateFormatter().date(from: time.replacingOccurrences(of: #"\.\d+"#, with: "", options: .regularExpression)))
        #expect(abs(wall.timeIntervalSinceNow - 86_400) < 3600, "\(time)")
        try waitFor("the step's log line") { first.log.contains(Self.stepLine) }
        #expect(first.log.components(separatedBy: Self.stepLine).count == 2, "logged once\n\(first.log)")

        // systemctl restart, the wall clock stepped another day while it was down: the same
        // boot, so CLOCK_BOOTTIME counts, and the step is seen at the start.
        first.stop()
        try "+2d\n".write(toFile: timestamps, atomically: true, encoding: .utf8)
        let second = try RunningService(cli, policy: Self.policy, environment: environment, launcher: Self.launcher)
        defer {
            second.stop()
            Self.removeSharedMemory(of: second.process.processIdentifier)
        }
        try expectLockedOut(cli, second)
        try waitFor("the step's log line after the restart") { second.log.contains(Self.stepLine) }
        #expect(!second.log.contains("another boot"), "\(second.log)")
        // Its events carry both clocks: the wall clock is two days off the boot's first offset.
        #expect(second.log.contains("wall-offset=172800"), "\(second.log)")
    }

    /// `fpmod status --json`: the PIN still locked out, for most of the configured 600 s.
    private func expectLockedOut(_ cli: CLI, _ service: RunningService,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        let status = try #require(try cli.run(["--config", service.config, "status", "--json"]).json)
        #expect(status["pinLockout"] as? String == "timed", "\(status)\n\(service.log)", sourceLocation: sourceLocation)
        let remaining = status["pinLockoutRemainingSeconds"] as? Double ?? 0
        #expect(remaining > 300 && remaining <= 600, "\(status)", sourceLocation: sourceLocation)
    }
}
