import GPIO
import SPI
import Synchronization

/// An FPC1020 at register level behind the `SPIBus` interface, for driving the driver in
/// process: it answers the registers and commands of docs/fpc1020.md, raises its IRQ line on
/// a `MemoryChip` like the sensor raises its pin, and records every message. The test side
/// places fingers and resets it from its own thread, as the outside world would.
final class FPC1020Simulator: SPIBus {
    struct State {
        var interrupt: UInt8 = 0
        var armed = false
        var fingerDown = false
        var hardwareID: UInt16 = 0x020A
        var image: [UInt8] = []
        var streamOffset: Int?
        var messages: [[SPISegment]] = []
        var commands: [UInt8] = []
        var registerWrites: [UInt8: [UInt8]] = [:]
        var interruptReads = 0
        /// Keeps the IRQ line high even after a clear (a wiring fault).
        var irqStuck = false
        /// What a capture raises: image ready, or the error bit.
        var captureInterrupt: UInt8 = 0x20
        var errorRegister: UInt8 = 0
    }

    let chip: MemoryChip
    let irqOffset: Int
    let maxMessageBytes: Int
    let state: Mutex<State>

    init(chip: MemoryChip, irqOffset: Int, maxMessageBytes: Int = 4096, image: [UInt8]) {
        self.chip = chip
        self.irqOffset = irqOffset
        self.maxMessageBytes = maxMessageBytes
        self.state = Mutex(State(image: image))
        chip.drive(offset: irqOffset, level: false)
    }

    var description: String { "simulated FPC1020" }

    // MARK: Test side

    /// A finger touches: raises finger-down if detection is armed.
    func placeFinger() {
        let raise = state.withLock { state -> Bool in
            state.fingerDown = true
            guard state.armed else { return false }
            state.armed = false
            state.interrupt |= 0x01
            return true
        }
        if raise { chip.drive(offset: irqOffset, level: true) }
    }

    /// The chip came out of reset: the power-on interrupt.
    func powerOn() {
        state.withLock { $0.interrupt = 0xFF }
        chip.drive(offset: irqOffset, level: true)
    }

    // MARK: SPIBus

    func transfer(_ segments: [SPISegment], deadline: ContinuousClock.Instant) throws(SPIError) -> [[UInt8]] {
        var raiseIRQ = false
        var lowerIRQ = false
        let replies = state.withLock { state -> [[UInt8]] in
            state.messages.append(segments)
            let first = segments[0]
            // A continuation of the image stream: pure reads.
            if first.transmit == nil, let offset = state.streamOffset {
                let end = offset + first.count
                state.streamOffset = first.csChange ? end : nil
                return [Array(state.image[offset..<end])]
            }
            guard let head = first.transmit?.first else { return segments.map { _ in [] } }
            if segments.count == 1 {
                state.commands.append(head)
                switch head {
                case 0xF8: state.interrupt = 0xFF; raiseIRQ = true
                case 0x24:
                    if state.fingerDown { state.interrupt |= 0x01; raiseIRQ = true } else { state.armed = true }
                case 0x34: state.armed = false
                case 0xC0: state.interrupt |= state.captureInterrupt; raiseIRQ = true
                default: break
                }
                return [[]]
            }
            let data = segments[1]
            if head == 0xC4 {
                let end = data.count
                state.streamOffset = data.csChange ? end : nil
                return [[], Array(state.image[0..<end])]
            }
            if let bytes = data.transmit {
                state.registerWrites[head] = bytes
                return [[], []]
            }
            let value: [UInt8]
            switch head {
            case 0x18: state.interruptReads += 1; value = [state.interrupt]
            case 0x1C:
                value = [state.interrupt]
                state.interrupt = 0
                lowerIRQ = !state.irqStuck
            case 0xFC: value = [UInt8(state.hardwareID >> 8), UInt8(state.hardwareID & 0xFF)]
            case 0x38: value = [state.errorRegister]
            default: value = [UInt8](repeating: 0, count: data.count)
            }
            return [[], value]
        }
        if raiseIRQ { chip.drive(offset: irqOffset, level: true) }
        if lowerIRQ { chip.drive(offset: irqOffset, level: false) }
        return replies
    }
}
