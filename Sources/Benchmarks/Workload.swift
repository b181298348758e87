import ModuleSimulator

/// Who touches the sensor, touch after touch: the four workloads of `fpmod bench --workload`.
public enum Workload: String, CaseIterable, Sendable {
    /// Every enrolled finger equally likely.
    case uniform
    /// 80 % of touches from 20 fingers (the household), the rest uniform over everyone.
    case regulars
    /// Zipf with s = 1: the k-th most frequent finger touches 1/k as often as the first.
    case zipf
    /// A finger enrolled nowhere, every time: the cost of a miss.
    case strangers

    public static let choices = allCases.map(\.rawValue) + ["all"]
    /// Size of the `regulars` household.
    public static let regularCount = 20
    public static let regularShare = 0.8
}

/// Draws touches of one workload over `fingers` enrolled fingers (numbered 0..<fingers). Pure
/// and seeded: the same workload, size and seed give the same touches in every run.
public struct TouchSource {
    public let workload: Workload
    public let fingers: Int
    private var random: SeededRandom
    /// `regulars`: the household; `zipf`: the fingers by rank (most frequent first).
    private(set) var favourites: [Int]
    private let zipfCumulative: [Double]

    public init(_ workload: Workload, fingers: Int, seed: String) {
        self.workload = workload
        self.fingers = max(1, fingers)
        random = SeededRandom(name: "touches:\(workload.rawValue):\(fingers):\(seed)")
        let everyone = Array(0..<self.fingers).shuffled(using: &random)
        switch workload {
        case .regulars: favourites = Array(everyone.prefix(Workload.regularCount))
        case .zipf: favourites = everyone
        case .uniform, .strangers: favourites = []
        }
        var cumulative: [Double] = []
        if workload == .zipf {
            var sum = 0.0
            for rank in 1...self.fingers {
                sum += 1 / Double(rank)
                cumulative.append(sum)
            }
            cumulative = cumulative.map { $0 / sum }
        }
        zipfCumulative = cumulative
    }

    /// The next touch: an enrolled finger's number, or nil for a stranger.
    public mutating func next() -> Int? {
        switch workload {
        case .uniform:
            return Int.random(in: 0..<fingers, using: &random)
        case .regulars:
            if Double.random(in: 0..<1, using: &random) < Workload.regularShare {
                return favourites[Int.random(in: 0..<favourites.count, using: &random)]
            }
            return Int.random(in: 0..<fingers, using: &random)
        case .zipf:
            let u = Double.random(in: 0..<1, using: &random)
            var low = 0, high = zipfCumulative.count - 1
            while low < high {
                let middle = (low + high) / 2
                if zipfCumulative[middle] < u { low = middle + 1 } else { high = middle }
            }
            return favourites[low]
        case .strangers:
            return nil
        }
    }

    public mutating func next(_ count: Int) -> [Int?] { (0..<count).map { _ in next() } }

    /// A new household (a new tenant): the same workload with other favourites.
    public func withNewFavourites(seed: String) -> TouchSource { TouchSource(workload, fingers: fingers, seed: seed) }
}
