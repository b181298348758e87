import Foundation
import ModuleSimulator

/// What one `fpmod bench` run on a module measures, as values: the CLI fills it from its
/// options, a console from a form; `ModuleBench.run` does the rest.
public struct BenchSettings: Sendable {
    public var cycles: Int
    public var templates: Int
    public var timing: TimingMode
    public var commands: Int
    public var transfers: Int
    public var baudRate: Int
    public var profile: SimulatorProfile
    /// The module on a port rather than a simulator started for the bench.
    public var hardware: Bool
    public var searchModels: [SearchModel] = [.bestMatch]
    /// Several library sizes may be listed (workloads run at each); the rest uses the first.
    public var librarySizes: [Int] = [10]
    public var workloads: [Workload] = []
    public var touches = 40
    public var history = 500
    /// The sweeps of library size, baud rate and packet size (simulator only).
    public var sweep = false
    /// The cost of the library's layout, restore and sync, AutoIdentify (simulator only).
    public var layout = false
    public var throughput = false
    public var autoIdentify = false
    /// The service's idle CPU, with and without a touch line: the fpmod executable whose
    /// `run` is measured (nil: not measured).
    public var idleExecutable: String?
    /// The fpmod binary whose `run` decides on cards and PINs (`--credentials`); nil: not run.
    public var credentialsExecutable: String?
    /// `--console-load RATE`: touch-to-relay with the web console on, idle and under RATE requests/s.
    public var consoleLoad: (executable: String, rate: Int)?

    public init(cycles: Int, templates: Int, timing: TimingMode, commands: Int, transfers: Int, baudRate: Int,
                profile: SimulatorProfile, hardware: Bool) {
        self.cycles = cycles
        self.templates = templates
        self.timing = timing
        self.commands = commands
        self.transfers = transfers
        self.baudRate = baudRate
        self.profile = profile
        self.hardware = hardware
    }

    /// A list of library sizes such as `100,500,1000`, each from 1 to 65535; nil: one of 10.
    public static func librarySizes(_ text: String?) throws(BenchError) -> [Int] {
        guard let text else { return [10] }
        let sizes = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !sizes.isEmpty, sizes.allSatisfy({ ($0 ?? 0) >= 1 && ($0 ?? 0) <= 65_535 }) else {
            throw BenchError(.usage, "--templates takes a number of templates or a comma-separated list (e.g. 100,500,1000), each from 1 to 65535; got '\(text)'.")
        }
        return sizes.compactMap { $0 }
    }
}
