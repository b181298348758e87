import Foundation
import GPIO
@testable import ImageSensor
import SPI
import Testing

/// The driver against the register-level simulator, with its IRQ and reset lines on a
/// `MemoryChip` (the umockdev tests in fpmodTests cover the real spidev path).
@Suite struct FPC1020SensorTests {
    static let irqOffset = 26
    static let resetOffset = 16

    struct Rig {
        let chip = MemoryChip(lineCount: 40)
        let simulator: FPC1020Simulator
        let irq: any InputLine

        init(maxMessageBytes: Int = 4096) throws {
            simulator = FPC1020Simulator(chip: chip, irqOffset: FPC1020SensorTests.irqOffset, maxMessageBytes: maxMessageBytes,
                                         image: SyntheticPrints.wholeFinger.pixels)
            irq = try chip.requestInput(offset: FPC1020SensorTests.irqOffset, consumer: "test", edges: .rising, bias: .asIs, activeLow: false)
        }
    }

    /// IRQ an edge-reporting input, RST an active-low output left released (high: the sensor
    /// runs); when RST is taken by someone else, IRQ is given back rather than kept.
    @Test func requestLinesTakesBothOrNeither() throws {
        let chip = MemoryChip(lineCount: 40)
        let (irq, reset) = try FPC1020Sensor.requestLines(on: chip, irqOffset: Self.irqOffset, resetOffset: Self.resetOffset)
        #expect(chip.level(offset: Self.resetOffset), "RST released at request")
        #expect(chip.debounceMicroseconds(offset: Self.irqOffset) == 0, "IRQ held")
        irq.release()
        reset.release()

        let holder = try chip.requestOutput(offset: Self.resetOffset, consumer: "someone else", initialValue: false, activeLow: false)
        defer { holder.release() }
        #expect(throws: GPIOError.self) { try FPC1020Sensor.requestLines(on: chip, irqOffset: Self.irqOffset, resetOffset: Self.resetOffset) }
        #expect(chip.debounceMicroseconds(offset: Self.irqOffset) == nil, "IRQ given back")
    }

    @Test func openResetsChecksTheIDAndWritesTheSetup() throws {
        let rig = try Rig()
        let sensor = try FPC1020Sensor.open(bus: rig.simulator, irqLine: rig.irq, resetLine: nil)
        #expect(sensor.identity.model == "FPC1020A")
        #expect(sensor.identity.hardwareID == 0x020A)
        let state = rig.simulator.state.withLock { $0 }
        #expect(state.commands == [0xF8])
        #expect(state.registerWrites[0x54] == [0x00, 0xC0, 0x00, 0xC0], "the full 192×192 frame")
        #expect(state.registerWrites.count == 10)
        #expect(!rig.chip.level(offset: Self.irqOffset), "the power-on interrupt was cleared")
    }

    /// The wait is a poll(2) on the IRQ line's descriptor: the finger placed from another
    /// thread wakes it, and the interrupt register is not read until then.
    @Test func aFingerWakesTheWaitThroughTheIRQLine() throws {
        let rig = try Rig()
        let sensor = try FPC1020Sensor.open(bus: rig.simulator, irqLine: rig.irq, resetLine: nil)
        let simulator = rig.simulator
        let placer = Thread { Thread.sleep(forTimeInterval: 0.1); simulator.placeFinger() }
        placer.start()
        #expect(try sensor.waitForFinger(deadline: .now + .seconds(10)))
        let state = simulator.state.withLock { $0 }
        #expect(state.interruptReads == 0, "no register polling while an IRQ line is wired")
        #expect(state.commands.last == 0x24)
        #expect(!rig.chip.level(offset: Self.irqOffset))
    }

    @Test func noFingerByTheDeadlineIsFalseAndIdlesTheSensor() throws {
        let rig = try Rig()
        let sensor = try FPC1020Sensor.open(bus: rig.simulator, irqLine: rig.irq, resetLine: nil)
        #expect(try !sensor.waitForFinger(deadline: .now + .milliseconds(100)))
        #expect(rig.simulator.state.withLock { $0.commands.suffix(2) } == [0x24, 0x34])
    }

    /// Every command leaves a rising and a falling edge queued on the line; a later wait must
    /// not take the capture's edge for a finger.
    @Test func anEarlierCommandsEdgeIsNoFinger() throws {
        let rig = try Rig()
        let sensor = try FPC1020Sensor.open(bus: rig.simulator, irqLine: rig.irq, resetLine: nil)
        _ = try sensor.capture()
        #expect(try !sensor.waitForFinger(deadline: .now + .milliseconds(50)))
    }

    @Test func withoutAnIRQLineTheRegisterIsPolled() throws {
        let rig = try Rig()
        let sensor = try FPC1020Sensor.open(bus: rig.simulator, irqLine: nil, resetLine: nil)
        let simulator = rig.simulator
        simulator.state.withLock { $0.interruptReads = 0 }  // the reset's own read
        let placer = Thread { Thread.sleep(forTimeInterval: 0.05); simulator.placeFinger() }
        placer.start()
        let started = ContinuousClock.now
        #expect(try sensor.waitForFinger(deadline: .now + .seconds(10)))
        let elapsed = ContinuousClock.now - started
        let reads = simulator.state.withLock { $0.interruptReads }
        // Each read but the first follows a full 5 ms sleep: at most one read per 5 ms that
        // passed (a spin would read thousands of times), and the last read saw the finger.
        let bound = Int(elapsed / .milliseconds(5)) + 1
        #expect(reads >= 1 && reads <= bound, "\(reads) reads in \(elapsed)")
    }

    @Test func theResetLineIsPulsedLowAndThePowerOnInterruptRead() throws {
        let rig = try Rig()
        let reset = try rig.chip.requestOutput(offset: Self.resetOffset, consumer: "test", initialValue: false, activeLow: true)
        let chip = rig.chip, simulator = rig.simulator
        // The outside world: the chip boots once its reset input goes high again after a low.
        // The chip's output history, not its current level: a 1 ms pulse is not missed however
        // late this thread runs.
        let watcher = Thread {
            for _ in 0..<10_000 {
                let levels = chip.outputHistory.filter { $0.offset == FPC1020SensorTests.resetOffset }.map(\.level)
                if let low = levels.firstIndex(of: false), levels[low...].contains(true) { simulator.powerOn(); return }
                usleep(200)
            }
        }
        watcher.start()
        let sensor = try FPC1020Sensor.open(bus: simulator, irqLine: rig.irq, resetLine: reset)
        #expect(sensor.identity.hardwareID == 0x020A)
        let levels = chip.outputHistory.filter { $0.offset == Self.resetOffset }.map(\.level)
        #expect(levels == [true, false, true], "idle high, pulsed low, released")
        #expect(!simulator.state.withLock { $0.commands }.contains(0xF8), "no soft reset with a reset line")
    }

    @Test func anImageLargerThanOneMessageIsReadWithChipSelectHeld() throws {
        let rig = try Rig(maxMessageBytes: 4096)
        let sensor = try FPC1020Sensor.open(bus: rig.simulator, irqLine: rig.irq, resetLine: nil)
        let image = try sensor.capture()
        #expect(image.pixels == SyntheticPrints.wholeFinger.pixels)
        let reads = rig.simulator.state.withLock { $0.messages }.drop { $0.first?.transmit != [0xC4, 0x00] }
        // 36 866 bytes through a 4096-byte buffer: 10 messages, all but the last keeping CS.
        #expect(reads.count == 10)
        #expect(reads.dropLast().allSatisfy { $0.last?.csChange == true })
        #expect(reads.last?.last?.csChange == false)
        #expect(reads.allSatisfy { message in message.reduce(0) { $0 + $1.count } <= 4096 })
    }

    @Test func oneMessageWhenTheBufferIsLargeEnough() throws {
        let rig = try Rig(maxMessageBytes: 65536)
        let sensor = try FPC1020Sensor.open(bus: rig.simulator, irqLine: rig.irq, resetLine: nil)
        _ = try sensor.capture()
        let reads = rig.simulator.state.withLock { $0.messages }.drop { $0.first?.transmit != [0xC4, 0x00] }
        #expect(reads.count == 1)
    }

    @Test func aSensorErrorIsReadFromItsRegister() throws {
        let rig = try Rig()
        let sensor = try FPC1020Sensor.open(bus: rig.simulator, irqLine: rig.irq, resetLine: nil)
        rig.simulator.state.withLock { $0.captureInterrupt = 0x04; $0.errorRegister = 0x01 }
        #expect(throws: ImageSensorError.sensorError(code: 0x01)) { _ = try sensor.capture() }
    }

    @Test func anIRQLineThatStaysHighIsAWiringFault() throws {
        let rig = try Rig()
        rig.simulator.state.withLock { $0.irqStuck = true }
        #expect(throws: ImageSensorError.interruptStuck) {
            _ = try FPC1020Sensor.open(bus: rig.simulator, irqLine: rig.irq, resetLine: nil)
        }
    }

    @Test func anotherFPCChipIsNamed() throws {
        let rig = try Rig()
        rig.simulator.state.withLock { $0.hardwareID = 0x150A }
        do {
            _ = try FPC1020Sensor.open(bus: rig.simulator, irqLine: rig.irq, resetLine: nil)
            Issue.record("opened an FPC1150")
        } catch {
            #expect(error == .wrongHardwareID(seen: 0x150A, expected: 0x020A, known: "FPC1150A (208×80)"))
            #expect(error.description.contains("not the FPC1020A (0x020A)"))
        }
    }

    @Test func captureFingerRefusesAnEmptyImage() throws {
        let chip = MemoryChip(lineCount: 40)
        let simulator = FPC1020Simulator(chip: chip, irqOffset: Self.irqOffset, image: SyntheticPrints.empty.pixels)
        let irq = try chip.requestInput(offset: Self.irqOffset, consumer: "test", edges: .rising, bias: .asIs, activeLow: false)
        let sensor = try FPC1020Sensor.open(bus: simulator, irqLine: irq, resetLine: nil)
        do {
            _ = try sensor.captureFinger()
            Issue.record("an empty image was handed on")
        } catch {
            guard case .noFinger(let result) = error else { Issue.record("\(error)"); return }
            #expect(result.coveredBlocks == 0)
        }
    }
}
