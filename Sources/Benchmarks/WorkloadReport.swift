import Administration
import JSONValue
import ModuleSimulator

/// Text and JSON for the workload part of `fpmod bench`, with the targets.
public enum WorkloadReport {
    /// The targets of the regulars-first work (simulator, datasheet timing, 57600 baud,
    /// best-match): mean identify ÷ whole-range mean. `regulars` is stated at 1000 templates.
    public static func target(for result: WorkloadBench.Result, timing: TimingMode, baudRate: Int) -> Double? {
        guard result.searchModel == .bestMatch, timing == .datasheet, baudRate == 57600 else { return nil }
        switch result.workload {
        case .regulars: return result.templates == 1000 ? 0.55 : nil
        case .strangers: return 1.05
        case .uniform: return 1.02
        case .zipf: return nil
        }
    }

    public static func table(_ results: [WorkloadBench.Result], timing: TimingMode, baudRate: Int) -> TextTable {
        var table = TextTable(["workload", "templates", "search", "touches", "order", "hot", "moves", "flash writes",
                               "mean ms", "p50 ms", "p99 ms", "whole mean", "whole p99", "ratio", "target", "vs shuffled"])
        for result in results {
            let inUse = Distribution(result.inUse), whole = Distribution(result.whole)
            let target = target(for: result, timing: timing, baudRate: baudRate)
            let ratio = result.meanRatioToWholeRange
            table.add([result.workload.rawValue, "\(result.templates)", result.searchModel.rawValue, "\(result.touches)",
                       result.order?.mode.rawValue ?? "–", "\(result.order?.hotSet?.slots.count ?? 0)",
                       "\(result.layout?.moves ?? 0)", "\(result.layout?.flashWrites ?? 0)",
                       inUse.map { ms($0.mean) } ?? "–", inUse.map { BenchReport.ms($0.p50) } ?? "–",
                       inUse.map { BenchReport.ms($0.p99) } ?? "–",
                       whole.map { ms($0.mean) } ?? "–", whole.map { BenchReport.ms($0.p99) } ?? "–",
                       ratio.map { DurationText.fixed($0, digits: 3) } ?? "–",
                       target.map { "≤ " + DurationText.fixed($0, digits: 2) + (met(ratio, $0) ? " met" : " not met") } ?? "",
                       result.meanRatioToShuffledWholeRange.map { DurationText.fixed($0, digits: 3) } ?? "–"])
        }
        return table
    }

    public static func ms(_ nanoseconds: Double) -> String { DurationText.fixed(nanoseconds / 1e6, digits: 2) }

    public static func met(_ ratio: Double?, _ target: Double) -> Bool { ratio.map { $0 <= target } ?? false }

    /// One sentence per result that needs one: a missed target's cause, and touches that missed.
    public static func notes(_ results: [WorkloadBench.Result], timing: TimingMode, baudRate: Int) -> [String] {
        var notes: [String] = []
        for result in results {
            let name = "\(result.workload.rawValue) at \(result.templates) (\(result.searchModel.rawValue))"
            if let target = target(for: result, timing: timing, baudRate: baudRate), !met(result.meanRatioToWholeRange, target) {
                notes.append("\(name): target ≤ \(DurationText.fixed(target, digits: 2)) not met — \(cause(result))")
            }
            for (cause, count) in result.misses.sorted(by: { $0.key < $1.key }) {
                notes.append("\(name): \(count) of \(result.touches) touches missed: \(cause)")
            }
        }
        return notes
    }

    /// Why a ratio is what it is, from the search order and the layout.
    public static func cause(_ result: WorkloadBench.Result) -> String {
        guard let order = result.order else { return "no search order was computed" }
        var parts = ["search order \(order.mode.rawValue): \(order.reason)"]
        if let hot = order.hotSet, !hot.slots.isEmpty {
            parts.append("hot set of \(hot.slots.count) answered \(BenchReport.percent(hot.hotShare)) of the history, "
                + "planned search ratio \(DurationText.fixed(hot.expectedRatio, digits: 3))")
        }
        if result.layoutMovesPlanned == 0, result.libraryFull, order.hotSet.map({ !$0.slots.isEmpty }) ?? false {
            parts.append("the hot set stays scattered: the library is full and a move needs a free slot")
        }
        if let layout = result.layout, layout.stopped != .finished || layout.skipped > 0 {
            parts.append("layout stopped: \(layout.stopped.rawValue), \(layout.skipped) move(s) skipped")
        }
        return parts.joined(separator: "; ")
    }

    public static func json(_ result: WorkloadBench.Result, timing: TimingMode, baudRate: Int) -> JSONValue {
        func distribution(_ samples: [Int64]) -> JSONValue { Distribution(samples)?.json ?? .null }
        let inUse = Distribution(result.inUse)
        var object: [String: JSONValue] = [
            "workload": .string(result.workload.rawValue), "templates": .int(Int64(result.templates)),
            "search_model": .string(result.searchModel.rawValue), "touches": .int(Int64(result.touches)),
            "mean_ms": inUse.map { .double(($0.mean / 1e4).rounded() / 100) } ?? .null,
            "p50_ms": inUse.map { .double(DurationText.milliseconds($0.p50)) } ?? .null,
            "p99_ms": inUse.map { .double(DurationText.milliseconds($0.p99)) } ?? .null,
            "identify": distribution(result.inUse), "whole_range": distribution(result.whole),
            "whole_range_before_layout_model": distribution(result.wholeBeforeLayout),
            "meanRatioToShuffledWholeRange": result.meanRatioToShuffledWholeRange.map { .double(($0 * 1000).rounded() / 1000) } ?? .null,
            "meanRatioToWholeRange": result.meanRatioToWholeRange.map { .double(($0 * 1000).rounded() / 1000) } ?? .null,
            "misses": .array(result.misses.sorted(by: { $0.key < $1.key }).map {
                .object(["cause": .string($0.key), "count": .int(Int64($0.value))])
            }),
        ]
        if let order = result.order {
            object["search_order"] = .object([
                "mode": .string(order.mode.rawValue), "plan": .string(order.plan.description),
                "hot_set": .int(Int64(order.hotSet?.slots.count ?? 0)), "reason": .string(order.reason),
                "history_touches": .int(Int64(order.history.touches)),
                "expected_search_ms": .double((order.expectedSearchMilliseconds * 100).rounded() / 100),
                "whole_search_ms": .double((order.wholeSearchMilliseconds * 100).rounded() / 100),
            ])
        }
        object["layout"] = .object([
            "moves_planned": .int(Int64(result.layoutMovesPlanned)), "moves": .int(Int64(result.layout?.moves ?? 0)),
            "flash_writes": .int(Int64(result.layout?.flashWrites ?? 0)),
            "ms": .double(((result.layout?.milliseconds ?? 0) * 100).rounded() / 100),
        ])
        if let target = target(for: result, timing: timing, baudRate: baudRate) {
            let met = met(result.meanRatioToWholeRange, target)
            object["target"] = .object(["max_ratio": .double(target), "met": .bool(met),
                                        "cause": met ? .null : .string(cause(result))])
        }
        return .object(object)
    }
}

extension BenchOutput {
    public mutating func workloads(_ results: [WorkloadBench.Result], timing: TimingMode, baudRate: Int) {
        write("Workloads (identify = capture + extract + the search order in use; whole = the same capture and extract + one "
            + "Search over the whole occupied range, on the same features; ratio = mean ÷ whole mean;\n"
            + "vs shuffled = mean ÷ the whole-range mean on the library before the layout, from the timing model — it differs from ratio only under first-match):")
        write(WorkloadReport.table(results, timing: timing, baudRate: baudRate).rendered())
        for note in WorkloadReport.notes(results, timing: timing, baudRate: baudRate) { write(note) }
        write("")
        append(results.map { WorkloadReport.json($0, timing: timing, baudRate: baudRate) }, to: "workloads")
    }
}
