import FingerprintModule
import FingerprintProtocol
import Posix

/// Per-command round trips: the time of one public driver call, from before the write to the
/// decoded reply — what tools/bench-peers.sh compares with the C floor and the peers.
struct RoundTripBench {
    let module: FingerprintModule

    /// The commands timed, in the order they run; each is idempotent and needs no setup.
    static let commands: [(name: String, instruction: Instruction)] = [
        ("ReadSysPara", .readSysPara), ("TempleteNum", .templateCount), ("GenImg", .genImg),
    ]

    /// `count` round trips of each command, interleaved so drift affects them alike.
    func run(count: Int) throws -> [(name: String, samples: [Int64])] {
        var samples = Self.commands.map { (name: $0.name, samples: [Int64]()) }
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
        return samples
    }
}
