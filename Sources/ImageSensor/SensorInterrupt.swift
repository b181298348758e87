import GPIO
import Posix

/// How the driver learns that the sensor raised its interrupt: an edge on its IRQ line, waited
/// for in poll(2) like the module's touch line; or, with no line wired, the interrupt register
/// read at a steady pace (a sleeping poll between reads, never a spin).
enum SensorInterrupt: Sendable {
    case line(any InputLine)
    /// Reads the register every `interval`.
    case polling(interval: Duration)

    /// Waits until the interrupt is raised: true, or false when `deadline` passed first.
    /// `readRegister` reads the (non-clearing) interrupt register for the polling case.
    func wait(deadline: ContinuousClock.Instant, readRegister: () throws(ImageSensorError) -> UInt8) throws(ImageSensorError) -> Bool {
        switch self {
        case let .line(line):
            // Edges queued before this command (the last one's rising edge, its fall on the
            // clear) are stale: drop them. A fresh one is not lost with them, since the sensor
            // holds IRQ high until its register is read, and the level is checked next.
            do {
                _ = try line.readEvents()
            } catch {
                throw .gpio(error)
            }
            while true {
                if try level(line) { return true }
                let events: [PollEvents]
                do {
                    events = try poll([(FileDescriptor(rawValue: line.fileDescriptor), .readable)], deadline: deadline)
                } catch {
                    throw .gpio(.system(operation: "poll", chip: "IRQ line", offset: line.offset, errno: error.rawValue))
                }
                if events[0].isEmpty { return try level(line) }
                let edges: [EdgeEvent]
                do {
                    edges = try line.readEvents()
                } catch {
                    throw .gpio(error)
                }
                // The sensor holds IRQ high until its register is read; a rising edge counts
                // even if the level already fell again (a glitch is then caught by the register).
                if edges.contains(where: { $0.kind == .rising }) { return true }
            }
        case let .polling(interval):
            while true {
                if try readRegister() != 0 { return true }
                let now = ContinuousClock.now
                if now >= deadline { return false }
                let wake = min(deadline, now + interval)
                // An empty poll set is a sleep until `wake` that EINTR cannot cut short.
                _ = try? poll([], deadline: wake)
            }
        }
    }

    private func level(_ line: any InputLine) throws(ImageSensorError) -> Bool {
        do {
            return try line.value()
        } catch {
            throw .gpio(error)
        }
    }

    /// Whether the line is high now (false without a line: nothing to check).
    func isRaised() throws(ImageSensorError) -> Bool {
        guard case let .line(line) = self else { return false }
        return try level(line)
    }
}
