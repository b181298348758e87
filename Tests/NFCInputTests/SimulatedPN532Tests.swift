import PN532
import PN532Simulator
import Testing

/// The simulated firmware alone, bytes in and out, for what libnfc never exercises.
@Suite("SimulatedPN532: power, syntax errors, waiting for a card")
struct SimulatedPN532Tests {
    static let wakeUp: [UInt8] = [0x55, 0x55, 0x00, 0x00, 0x00]

    func command(_ data: [UInt8]) -> [UInt8] { PN532Frame.information(.hostToPN532, data).bytes }

    /// The frames in what the chip sent.
    func frames(_ transmissions: [SimulatedPN532.Transmission]) -> [PN532Frame] {
        var decoder = PN532FrameDecoder()
        decoder.feed(transmissions.flatMap(\.bytes))
        var frames: [PN532Frame] = []
        while let frame = decoder.nextFrame() { frames.append(frame) }
        return frames
    }

    @Test("asleep it ignores a frame without the 55 wake-up byte, and answers once woken")
    func wakeUp() {
        var chip = SimulatedPN532()
        #expect(chip.receive(command([0x02])).isEmpty)
        let answer = frames(chip.receive(Self.wakeUp + command([0x02])))
        #expect(answer == [.ack, .information(.pn532ToHost, [0x03, 0x32, 0x01, 0x06, 0x07])])
    }

    @Test("malformed commands get the error frame after their ACK", arguments: [
        [UInt8(0x02), 0x00],          // GetFirmwareVersion takes no parameter
        [UInt8(0x06), 0x63],          // ReadRegister: half an address
        [UInt8(0x08), 0x63, 0x02],    // WriteRegister: no value
        [UInt8(0x32), 0x05, 0xFF],    // RFConfiguration MaxRetries: one value of three
        [UInt8(0x4A), 0x03, 0x00],    // InListPassiveTarget: MaxTg 3
        [UInt8(0x99)],                // no such command
    ])
    func syntaxErrors(data: [UInt8]) {
        var chip = SimulatedPN532()
        #expect(frames(chip.receive(Self.wakeUp + command(data))) == [.ack, .applicationError])
    }

    @Test("with infinite retries InListPassiveTarget waits for a card; an ACK from the host aborts it")
    func waitsForCard() throws {
        var chip = SimulatedPN532()
        _ = chip.receive(Self.wakeUp + command([0x32, 0x01, 0x01]))  // field on (retries default to FF)
        #expect(frames(chip.receive(command([0x4A, 0x01, 0x00]))) == [.ack])
        #expect(chip.isWaitingForCard)
        let card = try SimulatedCard(kind: .classic, uid: [1, 2, 3, 4])
        #expect(frames(chip.place(card)) == [.information(.pn532ToHost, [0x4B, 0x01, 0x01, 0x00, 0x04, 0x08, 0x04, 1, 2, 3, 4])])
        chip.remove()
        _ = chip.receive(command([0x4A, 0x01, 0x00]))
        #expect(chip.isWaitingForCard)
        #expect(chip.receive(PN532Frame.ack.bytes).isEmpty)
        #expect(!chip.isWaitingForCard)
        #expect(chip.place(card).isEmpty)
    }

    @Test("registers written are read back; never-written ones read their reset value")
    func registers() {
        var chip = SimulatedPN532()
        _ = chip.receive(Self.wakeUp + command([0x08, 0x63, 0x02, 0x80, 0x63, 0x3D, 0x07]))
        let read = frames(chip.receive(command([0x06, 0x63, 0x02, 0x63, 0x3D, 0x63, 0x3C])))
        #expect(read == [.ack, .information(.pn532ToHost, [0x07, 0x80, 0x07, 0x10])])
    }
}
