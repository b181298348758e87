import Administration
import ArgumentParsing
import JSONValue

/// `fpmod layout`: bring the hot set into one range at the start of the library now (the
/// service does the same between touches), or make the moves given with --move / --swap. Each
/// move is LoadChar → Store → DeletChar on the module itself, each swap LoadChar ×2 → Store ×2,
/// crash-safe like enroll.
enum LayoutCommand {
    static func run(_ invocation: Invocation) throws -> ExitCode {
        let parsed = invocation.parsed
        let explicit = try parsed.strings("move").map(parseMove) + parsed.strings("swap").map(parseSwap)
        let (store, session, administrator) = try AdminCommand.open(invocation)
        defer { session.close() }
        let order = try administrator.searchOrder(configured: .regularsFirst, cost: administrator.searchCost)
        let moves = explicit.isEmpty ? order.layoutMoves : explicit
        let ledger = FlashWriteLedger(store: store)
        let perDay = try parsed.int("max-writes-per-day", range: 0...LayoutCommand.maxPerDay) ?? 200
        let budget = try ledger.remaining(perDay: perDay)
        if parsed.flag("dry-run") {
            let text = moves.isEmpty ? "No move is needed (\(order.reason))."
                : "\(moves.count) move(s) or swap(s) would bring the hot set together: " + moves.map(\.description).joined(separator: ", ")
            invocation.emit(text, json: ["moves": .array(moves.map(json)), "reason": .string(order.reason),
                                         "flashWritesLeftToday": JSONValue(budget)])
            return .ok
        }
        let report = try LayoutMover(administrator: administrator).apply(moves, maxFlashWrites: budget)
        let used = try ledger.used()
        let stopped = switch report.stopped {
        case .finished: ""
        case .budget: "; stopped at today's bound of \(perDay) flash writes (\(used) used), the rest follows tomorrow"
        case .yielded: "; stopped early"
        }
        let text = "Moved \(report.moves) template(s) with \(report.flashWrites) flash writes in "
            + "\(Int(report.milliseconds.rounded())) ms" + (report.skipped > 0 ? " (\(report.skipped) no longer fitted)" : "") + stopped + "."
        invocation.emit(text, json: ["moves": JSONValue(report.moves), "flashWrites": JSONValue(report.flashWrites),
                                     "milliseconds": .double(report.milliseconds), "skipped": JSONValue(report.skipped),
                                     "stopped": .string(report.stopped.rawValue)])
        return .ok
    }

    static let maxPerDay = 5000

    static func json(_ move: SlotMove) -> JSONValue {
        ["from": JSONValue(move.from), "to": JSONValue(move.to), "swap": .bool(move.isSwap)]
    }

    /// `12:0` → slots 12 and 0 exchange their templates.
    static func parseSwap(_ text: String) throws -> SlotMove {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, b >= 0, a != b else {
            throw CommandFailure(.usage, "--swap \(text): give A:B, two different occupied slot numbers (e.g. --swap 12:0)")
        }
        return .swap(a, b)
    }

    /// `12:0` → 12 → 0.
    static func parseMove(_ text: String) throws -> SlotMove {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let from = Int(parts[0]), let to = Int(parts[1]), from >= 0, to >= 0 else {
            throw CommandFailure(.usage, "--move \(text): give FROM:TO, two slot numbers (e.g. --move 12:0)")
        }
        return SlotMove(from: from, to: to)
    }
}
