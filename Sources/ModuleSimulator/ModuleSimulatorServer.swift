import Foundation
import FingerprintProtocol
import Posix
import SerialPort
import Synchronization

/// Serves a `SimulatedModule` on a pseudo-terminal, on its own thread: one `poll` over the PTY
/// master, the control socket and its clients, and a wakeup pipe — so it costs no CPU while
/// idle. Replies leave after the module's processing time and, when the timing mode paces the
/// wire, in small chunks at `bytes × 10 / baud` of the baud rate the client set on its end.
///
/// Control it from Swift (`place`, `lift`, `touch`, `powerCycle`, `fault`, `status`) or
/// through the Unix control socket (`ControlCommand` lines, one reply line each).
public final class ModuleSimulatorServer: Sendable {
    public struct Configuration: Sendable {
        public var profile: SimulatorProfile
        public var timing: TimingMode
        /// Unix socket for the control line protocol.
        public var controlPath: String?
        /// JSON file holding the flash; loaded at start, rewritten after every flash change.
        public var statePath: String?
        /// A finger kept on the sensor from the start.
        public var finger: String?
        /// Password and address to set when there is no state file yet (nil keeps the stored ones).
        public var password: UInt32?
        public var address: UInt32?
        /// Stored baud rate to set when there is no state file yet.
        public var baudRate: Int?
        /// Send a glitch `00` before the boot byte, as a real RX line rising at power-up can.
        public var bootGlitch: Bool
        /// Frames sent while the client's port is set to another baud rate than the module's
        /// are unreadable to the module, so it ignores them (as a real UART would).
        public var enforceBaudRate: Bool
        /// Seed of the module's capture noise and random numbers.
        public var seed: UInt64
        /// Which template a Search answers and how long it takes.
        public var searchModel: SearchModel

        public init(profile: SimulatorProfile = .r307, timing: TimingMode = .instant,
                    controlPath: String? = nil, statePath: String? = nil, finger: String? = nil,
                    password: UInt32? = nil, address: UInt32? = nil, baudRate: Int? = nil,
                    bootGlitch: Bool = false, enforceBaudRate: Bool = true, seed: UInt64 = 1,
                    searchModel: SearchModel = .bestMatch) {
            self.profile = profile
            self.timing = timing
            self.controlPath = controlPath
            self.statePath = statePath
            self.finger = finger
            self.password = password
            self.address = address
            self.baudRate = baudRate
            self.bootGlitch = bootGlitch
            self.enforceBaudRate = enforceBaudRate
            self.seed = seed
            self.searchModel = searchModel
        }
    }

    public let configuration: Configuration
    /// The PTY slave clients open (`/dev/pts/N`).
    public let devicePath: String
    let terminal: PseudoTerminal
    let wakeup: WakeupPipe
    let listener: UnixListener?
    let core: Mutex<Core>
    let hooks = Mutex(Hooks())
    let finished = DispatchSemaphore(value: 0)

    /// Everything the server thread and the control API share.
    struct Core: Sendable {
        var module: SimulatedModule
        var faults = FaultInjector()
        var decoder = FrameDecoder()
        /// Bytes waiting for their moment on the wire, in order.
        var outgoing: [(due: ContinuousClock.Instant, bytes: [UInt8])] = []
        var bootCompleteAt: ContinuousClock.Instant = .now
        var savedGeneration = 0
        var commandsHandled = 0
        var stopRequested = false
        var started = false
        var lastSaveError: String?
        /// The finger presence last told to the observer (nil: nobody observes).
        var reportedPresence: Bool?
    }

    /// Creates the PTY (and control socket), loads the state file. Call `start()` next.
    public init(_ configuration: Configuration) throws(SimulatorError) {
        self.configuration = configuration
        let profile = configuration.profile
        var flash: ModuleFlash?
        if let path = configuration.statePath {
            do { flash = try StateFile.load(path: path, profile: profile) } catch { throw .state(error) }
        }
        var module = SimulatedModule(profile: profile, timing: configuration.timing, flash: flash, seed: configuration.seed,
                                     searchModel: configuration.searchModel)
        if flash == nil {
            module.configure { stored in
                if let password = configuration.password { stored.password = password }
                if let address = configuration.address { stored.address = address }
                if let baud = configuration.baudRate { stored.baudMultiplier = baud / 9600 }
            }
        }
        if let finger = configuration.finger { module.sensor.place(Placement(name: finger)) }
        do {
            terminal = try PseudoTerminal()
        } catch {
            throw .terminal(error)
        }
        do {
            wakeup = try WakeupPipe()
        } catch {
            terminal.close()
            throw .system(error, operation: "create wakeup pipe")
        }
        devicePath = terminal.slavePath
        if let control = configuration.controlPath {
            do { listener = try UnixListener(path: control, mode: 0o660) } catch {
                terminal.close()
                // Name whoever holds it, so "address in use" says which process to stop.
                let owner = error == .addressInUse ? UnixListener.listener(at: control) : nil
                let holder = owner.map { " (pid \($0.pid)\($0.commandLine.map { ", " + $0 } ?? "") listens on it; stop that process first)" }
                throw .system(error, operation: "listen on control socket \(control)" + (holder ?? ""))
            }
        } else {
            listener = nil
        }
        core = Mutex(Core(module: module, savedGeneration: flash == nil ? -1 : module.flashGeneration))
    }

    deinit { stop() }

    /// Starts the serving thread; the module "powers up" and sends its boot byte. With instant
    /// timing the boot byte is on the wire when this returns, so a client that opens the port
    /// afterwards (told by `publishLink` or the printed device path) never finds it in front of
    /// its first reply: a module powered long before. Libraries that read a reply as exactly
    /// 12 bytes (Adafruit's) would take `55 EF 01 …` for a bad start code.
    public func start() {
        let first = core.withLock { core -> Bool in
            defer { core.started = true }
            if !core.started { bootLocked(&core) }
            return !core.started
        }
        guard first else { return }
        flushDue()
        let thread = Thread { [self] in
            serve()
            finished.signal()
        }
        thread.name = "fpmod-sim"
        thread.start()
    }

    /// Makes the PTY reachable at `path` too (a symlink such as `sim0`, removed on stop). Call it
    /// after `start()`: the link appearing is what scripts wait for, so it must not appear
    /// while the boot byte of an instant boot is still to be written.
    public func publishLink(at path: String) throws(SimulatorError) {
        do { try terminal.link(at: path) } catch { throw .terminal(error) }
    }

    /// Stops serving, removes the link and control socket, closes the PTY. Idempotent.
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

    /// Runs one control command and returns its reply line (`ok …`, JSON for status, `error: …`).
    @discardableResult
    public func perform(_ command: ControlCommand) -> String {
        let (reply, change) = core.withLock { core in (apply(command, to: &core), presenceChangeLocked(&core)) }
        wakeup.signal()
        announcePresence(change)
        return reply
    }

    /// Parses and runs one control-protocol line.
    public func perform(line: String) -> String {
        do {
            return perform(try ControlCommand(line: line))
        } catch {
            return extraCommandReply(line, refusal: "error: \(error.message)")
        }
    }

    /// Puts a finger on the sensor until `lift()`.
    public func place(_ name: String, quality: CaptureQuality = .good) { perform(.place(name: name, quality: quality)) }
    public func lift() { perform(.lift) }
    /// `times` presses of one capture each, each after the host has seen the previous lift.
    public func touch(_ name: String, times: Int = 1, quality: CaptureQuality = .good) {
        perform(.touch(name: name, quality: quality, times: times))
    }
    public func powerCycle() { perform(.powerCycle) }
    public func fault(_ fault: Fault) { perform(.fault(fault)) }

    public func status() -> SimulatorStatus {
        core.withLock { statusLocked($0) }
    }

    /// The template library: slot → template bytes.
    public var library: [Int: [UInt8]] { core.withLock { $0.module.flash.library } }

    /// Direct access to the module's state, for tests that need more than the control API.
    public func withModule<R: Sendable>(_ body: (inout SimulatedModule) -> R) -> R {
        let result = core.withLock { body(&$0.module) }
        wakeup.signal()
        return result
    }

    func apply(_ command: ControlCommand, to core: inout Core) -> String {
        switch command {
        case let .place(name, quality):
            core.module.sensor.place(Placement(name: name, quality: quality))
            return "ok placed \(name)" + (quality == .good ? "" : " (\(quality.rawValue))")
        case .lift:
            core.module.sensor.lift()
            return "ok lifted"
        case let .touch(name, quality, times):
            core.module.sensor.touch(Placement(name: name, quality: quality), times: times)
            return "ok touch \(name) ×\(times)"
        case .powerCycle:
            bootLocked(&core)
            return "ok power-cycled"
        case let .fault(fault):
            core.faults.apply(fault)
            return "ok fault \(fault)"
        case .status:
            let status = statusLocked(core)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            guard let data = try? encoder.encode(status) else { return "error: cannot encode status" }
            return String(decoding: data, as: UTF8.self)
        }
    }

    func statusLocked(_ core: Core) -> SimulatorStatus {
        let module = core.module
        return SimulatorStatus(
            profile: module.profile.name, devicePath: devicePath, address: module.address.hex8,
            baudRate: module.activeBaudRate, storedBaudRate: 9600 * module.flash.baudMultiplier,
            packetSize: module.packetSize, securityLevel: module.flash.securityLevel,
            passwordSet: module.flash.password != 0, passwordVerified: module.passwordVerified,
            templateCount: module.flash.library.count, occupiedSlots: module.occupiedSlots,
            sensor: module.sensor.summary, faults: core.faults.active, timing: module.timing.mode.rawValue,
            searchModel: module.searchModel.rawValue, commandsHandled: core.commandsHandled)
    }

    /// Power-up: volatile state and faults are gone, half-sent replies too; `55` goes out
    /// after the boot time, and anything the host sends before that is lost.
    func bootLocked(_ core: inout Core) {
        core.faults = FaultInjector()
        core.outgoing.removeAll()
        core.decoder.reset()
        let plan = core.module.powerCycle(glitch: configuration.bootGlitch)
        let now = ContinuousClock.now
        core.bootCompleteAt = now + (plan.segments.first?.delay ?? .zero)
        schedule(plan.segments.map { ($0.delay, $0.bytes) }, in: &core, at: now)
    }
}

/// Why the simulator could not start.
public enum SimulatorError: Error, CustomStringConvertible {
    case terminal(SerialPortError)
    case system(Errno, operation: String)
    case state(StateFile.Error)

    public var description: String {
        switch self {
        case let .terminal(error): "cannot set up the pseudo-terminal: \(error)"
        case let .system(error, operation): "cannot \(operation): \(error)"
        case let .state(error): "\(error)"
        }
    }
}
