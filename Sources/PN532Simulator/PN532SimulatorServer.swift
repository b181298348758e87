import Foundation
import JSONValue
import PN532
import Posix
import SerialPort
import Synchronization

/// Serves a `SimulatedPN532` on a pseudo-terminal, on its own thread: one `poll` over the PTY
/// master, the control socket and its clients, and a wakeup pipe. A libnfc client opens
/// `devicePath` as `pn532_uart:/dev/pts/N`; cards are placed and faults set from Swift
/// (`perform`) or through the control socket (`PN532ControlCommand` lines, one JSON reply each).
public final class PN532SimulatorServer: Sendable {
    /// The PTY slave clients open (`/dev/pts/N`).
    public let devicePath: String
    /// The control socket, when one was asked for.
    public let controlPath: String?
    let terminal: PseudoTerminal
    let wakeup: WakeupPipe
    let listener: UnixListener?
    let core: Mutex<Core>
    let finished = DispatchSemaphore(value: 0)

    struct Core: Sendable {
        var chip = SimulatedPN532()
        /// Bytes waiting for their moment on the wire, in order.
        var outgoing: [(due: ContinuousClock.Instant, bytes: [UInt8])] = []
        var started = false
        var stopRequested = false
    }

    /// Creates the PTY and, with `controlPath`, the control socket. Call `start()` next.
    public init(controlPath: String? = nil, card: SimulatedCard? = nil) throws(PN532SimulatorError) {
        do { terminal = try PseudoTerminal() } catch { throw .terminal(error) }
        do { wakeup = try WakeupPipe() } catch {
            terminal.close()
            throw .system(error, operation: "create wakeup pipe")
        }
        if let controlPath {
            do { listener = try UnixListener(path: controlPath, mode: 0o660) } catch {
                terminal.close()
                throw .system(error, operation: "listen on control socket \(controlPath) (another simulator there? stop it or choose another path)")
            }
        } else {
            listener = nil
        }
        devicePath = terminal.slavePath
        self.controlPath = controlPath
        var chip = SimulatedPN532()
        if let card { _ = chip.place(card) }
        core = Mutex(Core(chip: chip))
    }

    deinit { stop() }

    /// Starts the serving thread.
    public func start() {
        let first = core.withLock { core -> Bool in
            defer { core.started = true }
            return !core.started
        }
        guard first else { return }
        let thread = Thread { [self] in
            serve()
            finished.signal()
        }
        thread.name = "fpmod-pn532-sim"
        thread.start()
    }

    /// Makes the PTY reachable at `path` too (a symlink, removed on stop).
    public func publishLink(at path: String) throws(PN532SimulatorError) {
        do { try terminal.link(at: path) } catch { throw .terminal(error) }
    }

    /// Where the control socket goes when none is named: one per process in $TMPDIR (or /tmp).
    public static func defaultControlPath(environment: [String: String], processID: Int32) -> String {
        let directory = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return directory + "/fpmod-pn532-sim-\(processID).control"
    }

    /// Stops serving, removes the control socket, closes the PTY. Idempotent.
    public func stop() {
        let running = core.withLock { core -> Bool in
            defer { core.stopRequested = true }
            return core.started && !core.stopRequested
        }
        if running {
            wakeup.signal()
            finished.wait()
        }
        listener?.close()
        terminal.close()
    }

    // MARK: Control API

    /// Runs one control command; returns its JSON reply.
    @discardableResult
    public func perform(_ command: PN532ControlCommand) -> JSONValue {
        let reply = core.withLock { core -> JSONValue in
            switch command {
            case let .place(card):
                let now = ContinuousClock.now
                for transmission in core.chip.place(card) { core.outgoing.append((now + transmission.delay, transmission.bytes)) }
                return ["ok": true, "placed": Self.describe(card)]
            case .remove:
                core.chip.remove()
                return ["ok": true, "removed": true]
            case let .fault(fault):
                core.chip.fault = fault
                return ["ok": true, "fault": .string(fault.rawValue)]
            case .status:
                return Self.status(core.chip)
            }
        }
        wakeup.signal()
        return reply
    }

    /// Parses and runs one control-socket line; the reply line (`{"error":…}` when it is bad).
    public func perform(line: String) -> String {
        do {
            return perform(try PN532ControlCommand(line: line)).encoded
        } catch {
            return JSONValue.object(["error": .string(error.message)]).encoded
        }
    }

    public func place(_ card: SimulatedCard) { perform(.place(card)) }
    public func remove() { perform(.remove) }
    public func fault(_ fault: PN532Fault) { perform(.fault(fault)) }
    public var chip: SimulatedPN532 { core.withLock { $0.chip } }

    static func describe(_ card: SimulatedCard) -> JSONValue {
        ["type": .string(card.kind.rawValue), "uid": .string(hex(card.uid)), "atqa": .string(hex([UInt8(card.atqa >> 8), UInt8(card.atqa & 0xFF)])),
         "sak": .string(hex([card.sak])), "ats": .string(hex(card.ats))]
    }

    static func status(_ chip: SimulatedPN532) -> JSONValue {
        let applications: JSONValue = chip.card.flatMap { chip.desfireCards[$0.uid] }
            .map { .array($0.applications.map { .string(String(format: "%06X", $0.aid)) }) } ?? .null
        return ["card": chip.card.map(describe) ?? .null, "desfireApplications": applications, "fault": .string(chip.fault.rawValue), "asleep": .bool(chip.asleep),
         "field": .bool(chip.fieldOn), "selected": .bool(chip.selectedTarget != nil), "waitingForCard": .bool(chip.isWaitingForCard),
         "commands": .int(Int64(chip.commandsHandled)), "rejectedFrames": .int(Int64(chip.decoderStatistics.rejectedFrames))]
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02X", $0) }.joined()
    }
}

/// Why the simulated PN532 could not start.
public enum PN532SimulatorError: Error, CustomStringConvertible {
    case terminal(SerialPortError)
    case system(Errno, operation: String)

    public var description: String {
        switch self {
        case let .terminal(error): "cannot set up the pseudo-terminal: \(error)"
        case let .system(error, operation): "cannot \(operation): \(error)"
        }
    }
}
