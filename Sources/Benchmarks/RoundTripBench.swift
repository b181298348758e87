import FingerprintModule
import Glibc
import FingerprintProtocol
import Posix

/// Per-command round trips: the time of one public driver call, from before the write to the
/// decoded reply — what tools/bench-peers.sh compares with the C floor and the peers.
public struct RoundTripBench {
    public let module: FingerprintModule

    /// The commands timed, in the order they run; each is idempotent and needs no setup.
    public static let commands: [(name: String, instruction: Instruction)] = [
        ("ReadSysPara", .readSysPara), ("TempleteNum", .templateCount), ("GenImg", .genImg),
    ]

    /// `count` round trips of each command, interleaved so drift affects them alike, and the
    /// process's CPU time per round trip (user + system): the host's own cost, which the
    /// wake-up latency of a virtual machine does not blur.
    public func run(count: Int) throws -> (samples: [(name: String, samples: [Int64])], cpuMicrosecondsPerRoundTrip: Double) {
        var samples = Self.commands.map { (name: $0.name, samples: [Int64]()) }
        let cpuStart = Self.cpuMicroseconds()
        for _ in 0..<count {
            for (index, command) in Self.commands.enumerated() {
                let start = Monotonic.nanoseconds()
                switch command.instruction {
                case .readSysPara: _ = try module.readSystemParameters()
                case .templateCount: _ = try module.templateCount()
                default: _ = try module.captureImage()
                }
                samples[index].samples.append(Int64(Monotonic.nanoseconds() - start))
            }
        }
        let cpu = Double(Self.cpuMicroseconds() - cpuStart) / Double(max(1, count * Self.commands.count))
        return (samples, cpu)
    }

    /// getrusage(RUSAGE_SELF): user + system time of this process, in microseconds.
    public static func cpuMicroseconds() -> Int64 {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Int64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000
            + Int64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
    }
}
