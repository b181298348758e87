import Foundation
import Posix
import SerialPort

/// The serving thread: wait on everything at once, receive, answer when due.
extension PN532SimulatorServer {
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
                events = try poll(watched, deadline: nextDue)
            } catch {
                FileHandle.standardError.write(Data("fpmod sim: poll failed: \(error)\n".utf8))
                break
            }
            if !events[1].isEmpty { _ = wakeup.drain() }
            if events[0].contains(.readable) { receive() }
            control?.serve(events.dropFirst(2)) { line, _ in perform(line: line) }
            flushDue()
        }
        control?.closeAll()
    }

    /// Hands what the host sent to the chip and queues its answers.
    func receive() {
        let bytes: [UInt8]
        do {
            bytes = try terminal.master.read(maxCount: 4096)
        } catch {
            // EAGAIN, or EIO while no client holds the slave: nothing to read. Avoid spinning
            // on a hung-up master (it polls readable until a client opens the slave).
            if error != .wouldBlock { CurrentProcess.sleep(for: .milliseconds(5)) }
            return
        }
        guard !bytes.isEmpty else { return }
        core.withLock { core in
            let now = ContinuousClock.now
            for transmission in core.chip.receive(bytes) {
                // Never before what is already queued: the wire keeps its order.
                let due = max(now + transmission.delay, core.outgoing.last?.due ?? now)
                core.outgoing.append((due, transmission.bytes))
            }
        }
    }

    /// Writes every queued transmission whose time has come.
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
        // Nobody reading the slave (or it is closed): the bytes are lost, as on a real wire.
        try? terminal.master.writeAll(due, deadline: .now + .seconds(2))
    }
}
