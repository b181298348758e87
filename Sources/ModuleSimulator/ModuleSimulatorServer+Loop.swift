import Foundation
import FingerprintProtocol
import Posix
import SerialPort

/// The serving thread: wait on everything at once, receive, answer, pace, persist.
extension ModuleSimulatorServer {
    /// Bytes per paced write: about 1–3 ms of wire time at common rates.
    static let chunkSize = 16

    func serve() {
        var control = listener.map(LineSocketClients.init)
        while true {
            let (stop, nextDue) = core.withLock { core -> (Bool, ContinuousClock.Instant?) in
                (core.stopRequested, core.outgoing.first?.due)
            }
            if stop { break }
            let watched: [(FileDescriptor, PollEvents)] = [(terminal.master, .readable), (wakeup.fileDescriptor, .readable)]
                + (control?.pollSet ?? [])
            let events: [PollEvents]
            do {
                events = try poll(watched, deadline: nextDue.map(Self.earlyWake))
            } catch {
                report("poll failed: \(error)")
                break
            }
            if !events[1].isEmpty { _ = wakeup.drain() }
            if events[0].contains(.readable) { receive() }
            control?.serve(events.dropFirst(2)) { line, _ in perform(line: line) }
            flushDue()
            answerPending()
            persist()
        }
        control?.closeAll()
    }

    /// The kernel lets poll(2) wake up to 0.1 % of its timeout late (timer slack: 0.3 ms on a
    /// 300 ms capture). Waking a little early and polling again with a short timeout keeps
    /// paced replies on time to within the ordinary 50 µs slack.
    static func earlyWake(_ due: ContinuousClock.Instant) -> ContinuousClock.Instant {
        let remaining = ContinuousClock.now.duration(to: due)
        guard remaining > .milliseconds(2) else { return due }
        return due - remaining / 500 - .microseconds(200)
    }

    /// Reads what the host sent into the decoder.
    func receive() {
        let bytes: [UInt8]
        do {
            bytes = try terminal.master.read(maxCount: 4096)
        } catch {
            // EAGAIN (spurious wakeup) or EIO while no client holds the slave: nothing to read.
            return
        }
        guard !bytes.isEmpty else { return }
        core.withLock { core in
            let rejected = core.decoder.statistics.rejectedFrames
            core.decoder.feed(bytes)
            // The module is still booting: bytes sent now are lost.
            if ContinuousClock.now < core.bootCompleteAt { core.decoder.reset() }
            _ = rejected
        }
    }

    /// Answers every complete frame, one at a time: the module is busy (and the host's next
    /// bytes wait in the decoder) until the previous reply has left.
    func answerPending() {
        let clientBaud = configuration.enforceBaudRate ? terminal.clientBaudRate() : nil
        // A capture can end a touch script's press (or start the next one).
        defer { announcePresence(core.withLock { presenceChangeLocked(&$0) }) }
        core.withLock { core in
            while core.outgoing.isEmpty {
                let rejectedBefore = core.decoder.statistics.rejectedFrames
                let frame = core.decoder.nextFrame()
                // A corrupted packet in the middle of a download breaks the transfer.
                if core.decoder.statistics.rejectedFrames != rejectedBefore { core.module.abortDownload() }
                guard let frame else { return }
                if core.faults.silenced { continue }
                if let clientBaud, clientBaud != core.module.activeBaudRate {
                    // At the wrong rate the module's UART sees only noise.
                    core.module.abortDownload()
                    continue
                }
                // The module's datasheet time starts when the command arrived, not when this
                // simulator finished computing the reply (rendering an image takes a while):
                // otherwise its own CPU time would show up as host overhead in benchmarks.
                let arrived = ContinuousClock.now
                guard let plan = core.module.handle(frame: frame) else { continue }
                core.commandsHandled += 1
                schedule(core.faults.wireSegments(for: plan), in: &core, at: arrived)
            }
        }
    }

    /// Queues segments: each after its delay, paced at the client's baud rate when the timing
    /// mode asks for it.
    func schedule(_ segments: [(delay: Duration, bytes: [UInt8])], in core: inout Core, at start: ContinuousClock.Instant) {
        var time = start
        let timing = core.module.timing
        let baud = terminal.clientBaudRate() ?? core.module.activeBaudRate
        for segment in segments {
            time = time + segment.delay
            guard !segment.bytes.isEmpty else { continue }
            if !timing.mode.pacesWire {
                core.outgoing.append((time, segment.bytes))
                continue
            }
            var offset = 0
            while offset < segment.bytes.count {
                let end = min(offset + ModuleSimulatorServer.chunkSize, segment.bytes.count)
                // A chunk is handed over once its last byte would have crossed the wire.
                time = time + timing.wireDuration(bytes: end - offset, baudRate: baud)
                core.outgoing.append((time, Array(segment.bytes[offset..<end])))
                offset = end
            }
        }
    }

    /// Writes every queued chunk whose time has come.
    func flushDue() {
        let due: [UInt8] = core.withLock { core in
            let now = ContinuousClock.now
            var bytes: [UInt8] = []
            while let first = core.outgoing.first, first.due <= now {
                bytes += first.bytes
                core.outgoing.removeFirst()
            }
            return bytes
        }
        guard !due.isEmpty else { return }
        do {
            try terminal.master.writeAll(due, deadline: .now + .seconds(2))
        } catch {
            // Nobody reads the slave (or it is closed): the bytes are lost, as on a real wire.
        }
    }

    /// Saves the flash after a change, when a state file is configured.
    func persist() {
        guard let path = configuration.statePath else { return }
        let snapshot: (ModuleFlash, Int)? = core.withLock { core in
            core.module.flashGeneration == core.savedGeneration ? nil : (core.module.flash, core.module.flashGeneration)
        }
        guard let (flash, generation) = snapshot else { return }
        do {
            try StateFile.save(flash, profile: configuration.profile, path: path)
            core.withLock { $0.savedGeneration = generation }
        } catch {
            core.withLock { $0.savedGeneration = generation }
            report("\(error)")
        }
    }

    func report(_ message: String) {
        FileHandle.standardError.write(Data(("fpmod sim: " + message + "\n").utf8))
    }
}
