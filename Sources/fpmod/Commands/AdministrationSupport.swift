import Administration
import ArgumentParsing
import Foundation
import PrintableText
import ReaderSessions
import TemplateStore

/// What the administration commands share: opening store and reader together, reporting matches.
enum AdminCommand {
    /// Opens the store, then the reader the options name (`ReaderSession`): a module with the
    /// pairing, reconciling at open, or an image sensor with the host matching.
    static func openReader(_ invocation: Invocation, virtualFinger: String? = nil,
                           createStore: Bool = false) throws -> (TemplateStore, ReaderSession) {
        _ = try invocation.readerChoice()  // a contradictory command line is refused before a store is made
        let store = try invocation.openStore(create: createStore)
        return (store, try ReaderSession.open(try invocation.readerOptions(), store: store, virtualFinger: virtualFinger))
    }

    /// Opens the store, then the module with the pairing, reconciling at open: for the
    /// commands that need a UART module (sync, restore, pair…), refused on an image sensor.
    static func open(_ invocation: Invocation, virtualFinger: String? = nil, allowUntrusted: Bool = false,
                     createStore: Bool = false) throws -> (TemplateStore, ModuleSession, Administrator) {
        let choice = try invocation.readerChoice(moduleCommand: true)
        if choice.isImageSensor { throw choice.moduleOnlyRefusal(command: invocation.parsed.path) }
        let store = try invocation.openStore(create: createStore)
        let (session, administrator) = try ModuleSession.openAdministrator(
                try invocation.readerOptions(), store: store, virtualFinger: virtualFinger, allowUntrusted: allowUntrusted)
        return (store, session, administrator)
    }

    /// With --sim, identify/verify need to know which virtual finger touches the sensor.
    static func requireSimFinger(_ invocation: Invocation) throws {
        if invocation.parsed.flag("sim"), invocation.parsed.string("sim-finger") == nil {
            throw CommandFailure(.usage, """
                With --sim, say which virtual finger touches the sensor: --sim-finger NAME (or FPMOD_SIM_FINGER). \
                Enroll names it <user>-<finger label>, e.g. --sim-finger alice-right-index.
                """)
        }
    }

    static func timesText(_ times: StageTimes) -> String {
        String(format: "capture %.1f ms, extract %.1f ms, search %.1f ms",
               times.captureMilliseconds, times.extractMilliseconds, times.searchMilliseconds)
    }

    /// Prints a match outcome and returns the exit code: 0 match, 1 no match or tamper,
    /// 75 no finger / poor image (try again).
    static func report(_ outcome: MatchOutcome, _ invocation: Invocation) -> ExitCode {
        let text: String
        let code: ExitCode
        switch outcome {
        case .match(let found):
            text = "verify-match: \(Printable.escaped(found.displayName)) (\(Printable.escaped(found.user))), \(Printable.escaped(found.label)), slot \(found.slot), score \(found.score)\n"
                + "  \(timesText(found.times))"
            code = .ok
        case .noMatch(let times):
            text = "verify-no-match: the finger matched nobody.\n  \(timesText(times))"
            code = .denied
        case .tamper(let slot, let score):
            text = "tamper: the reader matched slot \(slot) (score \(score)), which the store does not know; refused. Run `fpmod sync` to remove it."
            code = .denied
        case .poorImage:
            text = "verify-retry-scan: the capture was poor; place the finger flat and try again."
            code = .tryLater
        case .noFinger:
            // Nothing was measured: an error like any other (stderr, "Error:"); --json keeps its result.
            if !invocation.json {
                StandardStreams.writeError("Error: no finger was placed on the sensor in time; run the command again and "
                    + "touch the sensor when it says \"Place your finger\", or allow longer with --timeout (e.g. --timeout 30s).\n")
                return .tryLater
            }
            text = ""
            code = .tryLater
        case .nothingEnrolled:
            text = "Nobody is enrolled yet; enroll someone first (`fpmod enroll NAME`)."
            code = .denied
        }
        invocation.emit(text, json: outcome.jsonValue)
        return code
    }
}
