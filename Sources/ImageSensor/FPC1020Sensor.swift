import GPIO
import Imaging
import Glibc
import SPI

/// The FPC1020A capacitive sensor (192 × 192 pixels, 508 dpi) on SPI, with its reset line and
/// IRQ line on GPIO. `open` resets it, checks the hardware id and writes the setup; after that
/// the sensor waits for fingers and captures images.
///
/// Each call is one sequence of SPI messages; calls are not meant to overlap (one owner, like
/// the module's serial port), and the bus and lines serialise themselves.
public final class FPC1020Sensor: ImageSensor {
    public let identity: SensorIdentity
    private let bus: any SPIBus
    private let interrupt: SensorInterrupt
    private let resetLine: (any OutputLine)?
    private let setup = FPC1020Setup.revision3

    /// How long one command may take to raise its interrupt. The vendor driver allows 100 ms
    /// for a reset; a capture plus its conversion is well under that.
    static let commandTimeout: Duration = .milliseconds(500)

    /// `irqLine`: the sensor's IRQ output, requested with rising edges (active high); nil polls
    /// the interrupt register instead. `resetLine`: its RST input, requested active-low (true =
    /// held in reset); nil uses the soft-reset command.
    public static func open(bus: any SPIBus, irqLine: (any InputLine)?, resetLine: (any OutputLine)?) throws(ImageSensorError) -> FPC1020Sensor {
        let interrupt: SensorInterrupt = irqLine.map { .line($0) } ?? .polling(interval: .milliseconds(5))
        let probe = FPC1020Sensor(bus: bus, interrupt: interrupt, resetLine: resetLine, identity: nil)
        try probe.resetAndClear()
        let id = try probe.readHardwareID()
        guard id == FPC1020Chip.fpc1020A else {
            throw .wrongHardwareID(seen: id, expected: FPC1020Chip.fpc1020A, known: FPC1020Chip.otherChips[id])
        }
        try probe.writeSetup()
        return FPC1020Sensor(bus: bus, interrupt: interrupt, resetLine: resetLine, identity: id)
    }

    private init(bus: any SPIBus, interrupt: SensorInterrupt, resetLine: (any OutputLine)?, identity id: UInt16?) {
        self.bus = bus
        self.interrupt = interrupt
        self.resetLine = resetLine
        self.identity = SensorIdentity(
            model: "FPC1020A", hardwareID: id, width: FPC1020Chip.width, height: FPC1020Chip.height,
            dotsPerInch: FPC1020Chip.dotsPerInch, connection: bus.description)
    }

    // MARK: ImageSensor

    public func reset() throws(ImageSensorError) {
        try resetAndClear()
        let id = try readHardwareID()
        guard id == FPC1020Chip.fpc1020A else {
            throw .wrongHardwareID(seen: id, expected: FPC1020Chip.fpc1020A, known: FPC1020Chip.otherChips[id])
        }
        try writeSetup()
    }

    public func waitForFinger(deadline: ContinuousClock.Instant) throws(ImageSensorError) -> Bool {
        try command(.waitForFingerPresent)
        guard try interrupt.wait(deadline: deadline, readRegister: readInterruptRegister) else {
            // Leave detection mode so a later command starts from idle.
            try command(.activateIdle)
            return false
        }
        let bits = try clearInterrupt()
        try checkError(bits)
        guard bits.contains(.fingerDown) else {
            throw .unexpectedInterrupt(waitingFor: "a finger", seen: bits.rawValue)
        }
        return true
    }

    public func capture() throws(ImageSensorError) -> SensorImage {
        try command(.captureImage)
        let deadline = ContinuousClock.now + Self.commandTimeout
        guard try interrupt.wait(deadline: deadline, readRegister: readInterruptRegister) else {
            throw .interruptTimeout(waitingFor: "a captured image")
        }
        let bits = try clearInterrupt()
        try checkError(bits)
        guard bits.contains(.imageDataAvailable) else {
            throw .unexpectedInterrupt(waitingFor: "image data", seen: bits.rawValue)
        }
        // Raw, as the FIFO delivers it: which grey level a ridge reads as is unverified
        // without a sensor (docs/fpc1020.md), so no inversion is guessed here.
        let pixels = try readImage(count: FPC1020Chip.width * FPC1020Chip.height)
        guard let image = try? SensorImage(width: FPC1020Chip.width, height: FPC1020Chip.height, pixels: pixels) else {
            preconditionFailure("readImage returns width × height bytes")
        }
        return image
    }

    // MARK: Sequences

    /// Reset through the reset line (low 1 ms, then 1.25 ms to boot, as the vendor driver
    /// does) or the soft-reset command; then the power-on interrupt (0xFF) must be read once,
    /// after which the register reads 0 and the IRQ line is low again.
    private func resetAndClear() throws(ImageSensorError) {
        if let resetLine {
            do {
                try resetLine.set(true)
                Self.pause(microseconds: 1000)
                try resetLine.set(false)
            } catch {
                throw .gpio(error)
            }
            Self.pause(microseconds: 1250)
        } else {
            try command(.softReset)
        }
        let deadline = ContinuousClock.now + Self.commandTimeout
        guard try interrupt.wait(deadline: deadline, readRegister: readInterruptRegister) else {
            throw .noResetInterrupt(seen: nil, usedResetLine: resetLine != nil)
        }
        let first = try clearInterrupt()
        guard first == .powerOn else { throw .noResetInterrupt(seen: first.rawValue, usedResetLine: resetLine != nil) }
        if try interrupt.isRaised() { throw .interruptStuck }
        let second = try clearInterrupt()
        guard second.isEmpty else { throw .unexpectedInterrupt(waitingFor: "a cleared interrupt register after reset", seen: second.rawValue) }
    }

    private func readHardwareID() throws(ImageSensorError) -> UInt16 {
        let bytes = try read(.hardwareID, count: 2)
        return UInt16(bytes[0]) << 8 | UInt16(bytes[1])
    }

    private func writeSetup() throws(ImageSensorError) {
        for write in setup.writes {
            try exchange([.write([write.register.rawValue]), .write(write.bytes)])
        }
    }

    /// The image streams out after `readImage` and one dummy byte. spidev moves at most
    /// `maxMessageBytes` a message, so a larger image is read in several messages with chip
    /// select held between them (csChange on each message's last segment but the final one).
    private func readImage(count: Int) throws(ImageSensorError) -> [UInt8] {
        let limit = bus.maxMessageBytes
        guard limit >= 3 else { throw .spi(.messageTooLong(path: bus.description, bytes: count + 2, limit: limit)) }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(count)
        let header: [UInt8] = [FPC1020Command.readImage.rawValue, 0x00]
        var first = true
        while pixels.count < count {
            let room = first ? limit - header.count : limit
            let chunk = min(room, count - pixels.count)
            let more = pixels.count + chunk < count
            var segments: [SPISegment] = first ? [.write(header)] : []
            segments.append(.read(chunk, csChange: more))
            let replies = try exchange(segments)
            pixels += replies[replies.count - 1]
            first = false
        }
        return pixels
    }

    // MARK: Register access

    private func command(_ command: FPC1020Command) throws(ImageSensorError) {
        try exchange([.write([command.rawValue])])
    }

    private func read(_ register: FPC1020Register, count: Int) throws(ImageSensorError) -> [UInt8] {
        try exchange([.write([register.rawValue]), .read(count)])[1]
    }

    private func readInterruptRegister() throws(ImageSensorError) -> UInt8 {
        try read(.readInterrupt, count: 1)[0]
    }

    private func clearInterrupt() throws(ImageSensorError) -> FPC1020Interrupt {
        FPC1020Interrupt(rawValue: try read(.readInterruptWithClear, count: 1)[0])
    }

    private func checkError(_ bits: FPC1020Interrupt) throws(ImageSensorError) {
        guard bits.contains(.error), bits != .powerOn else { return }
        throw .sensorError(code: try read(.readErrorWithClear, count: 1)[0])
    }

    @discardableResult
    private func exchange(_ segments: [SPISegment]) throws(ImageSensorError) -> [[UInt8]] {
        do {
            return try bus.transfer(segments, deadline: ContinuousClock.now + Self.commandTimeout)
        } catch {
            throw .spi(error)
        }
    }

    private static func pause(microseconds: UInt32) {
        _ = usleep(microseconds)
    }
}
