import FingerprintModule
import ModuleSimulator

/// The parts of `fpmod bench` about what identify searches and how a library is kept: the
/// workloads, the layout cost, restore/sync throughput and AutoIdentify. Each part starts its
/// own simulated libraries, so parts never influence each other.
public struct SearchBenches {
    public let settings: BenchSettings
    public let progress: (String) -> Void

    public func run(workloads: Bool, layout: Bool, throughput: Bool, autoIdentify: Bool, into output: inout BenchOutput) throws {
        if workloads { try self.workloads(into: &output) }
        if layout { try self.layout(into: &output) }
        if throughput { try self.throughput(into: &output) }
        if autoIdentify { try self.autoIdentify(into: &output) }
    }

    private func library(_ templates: Int, model: SearchModel, seed: String, profile: SimulatorProfile? = nil,
                         baudRate: Int? = nil) throws -> BenchLibrary {
        try BenchLibrary(profile: profile ?? settings.profile, timing: settings.timing, baudRate: baudRate ?? settings.baudRate,
                         fingers: templates, searchModel: model, seed: seed)
    }

    /// Per model and size: uniform, regulars (strangers on the regulars' layout), zipf.
    private func workloads(into output: inout BenchOutput) throws {
        for model in settings.searchModels {
            var results: [WorkloadBench.Result] = []
            for size in settings.librarySizes {
                var byHistory: [Workload: BenchLibrary] = [:]
                defer { byHistory.values.forEach { $0.close() } }
                for workload in Workload.allCases where settings.workloads.contains(workload) {
                    progress("fpmod bench: \(workload.rawValue), \(size) templates, \(model.rawValue), \(settings.touches) touches…")
                    let historyWorkload = WorkloadBench.historyWorkload(for: workload)
                    if let shared = byHistory[historyWorkload] {
                        // Strangers on the layout the regulars already brought about.
                        let bench = WorkloadBench(library: shared, searchModel: model, slotsBeforeLayout: nil)
                        results.append(try bench.runOnPrepared(workload, touches: settings.touches, history: settings.history))
                        continue
                    }
                    let library = try library(size, model: model, seed: "workload")
                    byHistory[historyWorkload] = library
                    var bench = WorkloadBench(library: library, searchModel: model, slotsBeforeLayout: nil)
                    results.append(try bench.run(workload, touches: settings.touches, history: settings.history))
                }
            }
            output.workloads(results, timing: settings.timing, baudRate: settings.baudRate)
        }
    }

    private func layout(into output: inout BenchOutput) throws {
        let size = settings.librarySizes.max() ?? 1000
        progress("fpmod bench: layout cost, \(size) templates…")
        let library = try library(size, model: .bestMatch, seed: "layout")
        defer { library.close() }
        let phases = try LayoutBench(library: library).run()
        output.section("layout", title: "Layout cost (\(library.fingers) templates, shuffled; \(settings.baudRate) baud; moves = LoadChar, Store, DeletChar on the module):",
                       table: LayoutBench.table(phases), notes: LayoutBench.notes(phases, library: library),
                       json: LayoutBench.json(phases, templates: library.fingers))
    }

    private func throughput(into output: inout BenchOutput) throws {
        let size = min(settings.librarySizes.max() ?? settings.profile.capacity, settings.profile.capacity)
        let rates = [57600, 115_200].filter { settings.profile.familyProfile.baudMultipliers.contains($0 / 9600) }
        let rows = try ThroughputBench(profile: settings.profile, timing: settings.timing, templates: size, progress: progress).run(baudRates: rates)
        output.section("throughput", title: "Restore and sync (\(size) templates; limit = paced bytes + module time, UART limit = every byte both ways + module time):",
                       table: ThroughputBench.table(rows),
                       notes: ["restore = Empty, then per template DownChar + Store + LoadChar + UpChar compared; sync = DownChar + Store per template."],
                       json: ThroughputBench.json(rows))
    }

    private func autoIdentify(into output: inout BenchOutput) throws {
        var notes: [String] = []
        var profile = settings.profile
        if !IdentifyMethod.automaticIsAvailable(on: profile.family) {
            notes.append("The \(profile.name) has no one-command identify; measured on the r503 profile instead.")
            profile = .r503
        }
        let size = min(settings.librarySizes.max() ?? 100, profile.capacity, 255)
        progress("fpmod bench: AutoIdentify vs three commands, \(profile.name), \(size) templates…")
        let library = try library(size, model: settings.searchModels[0], seed: "auto-identify", profile: profile)
        defer { library.close() }
        let result = try AutoIdentifyBench(library: library, cycles: max(1, settings.touches)).run()
        let (timing, outcomes) = AutoIdentifyBench.tables(result)
        notes.append(outcomes.rendered())
        notes.append(AutoIdentifyBench.verdict(result, profile: profile))
        output.section("auto_identify", title: "AutoIdentify (\(profile.name), \(library.fingers) templates, \(settings.baudRate) baud):",
                       table: timing, notes: notes, json: AutoIdentifyBench.json(result, profile: profile))
    }
}
