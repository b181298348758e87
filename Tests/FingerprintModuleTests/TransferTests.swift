import FingerprintModule
import FingerprintProtocol
import SerialPort
import Synchronization
import Testing
import TestSupport

@Suite struct TransferTests {
    static let template: [UInt8] = (0..<1536).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }

    /// A module whose packet size code is `code`, uploading `template` on UpChar.
    static func uploader(packetSizeCode code: Int) throws -> ScriptedModule {
        try ScriptedModule { command, _, _ in
            switch command.instruction {
            case .upChar:
                return ack(0x00) + DataTransfer.encoded(template, packetSize: 32 << code)
            case .templateCount: return ack(0x00, [0, 1])
            default: return r503Opening(command, packetSizeCode: code) ?? ack(0x01)
            }
        }
    }

    @Test(arguments: PacketSize.allCases)
    func uploadsATemplateWithEveryPacketSize(_ size: PacketSize) throws {
        let script = try Self.uploader(packetSizeCode: size.rawValue)
        let module = try connectedR503(script)
        #expect(module.packetSize == size.bytes)
        #expect(try module.uploadTemplate() == Self.template)
    }

    @Test func abortsOnABadPacketAndTheNextCommandStillWorks() throws {
        let broken = try ScriptedModule { command, _, _ in
            switch command.instruction {
            case .upChar:
                var bytes = ack(0x00)
                for (index, frame) in DataTransfer.frames(for: Self.template, packetSize: 128).enumerated() {
                    var packet = frame.encoded()
                    if index == 4 { packet[20] ^= 0xFF }  // one payload byte flipped in transit
                    bytes += packet
                }
                return bytes
            case .templateCount: return ack(0x00, [0, 1])
            default: return r503Opening(command) ?? ack(0x01)
            }
        }
        let module = try connectedR503(broken)
        let error = expectThrows(ModuleError.self) { try module.uploadTemplate() }
        guard case let .corruptedReply(.upChar, statistics) = error else {
            Issue.record("expected .corruptedReply, got \(String(describing: error))")
            return
        }
        #expect(statistics.checksumErrors >= 1)
        #expect(try module.templateCount() == 1)
    }

    @Test func aMissingEndPacketIsATimeoutOrCorruption() throws {
        let script = try ScriptedModule { command, _, _ in
            switch command.instruction {
            case .upChar:
                var bytes = ack(0x00)
                for frame in DataTransfer.frames(for: Self.template, packetSize: 128).dropLast() { frame.appendEncoded(to: &bytes) }
                return bytes
            default: return r503Opening(command) ?? ack(0x01)
            }
        }
        let module = try connectedR503(script)
        let error = expectThrows(ModuleError.self) { try module.uploadTemplate() }
        #expect(error?.isTransportFailure == true)
    }

    /// A hostile module that streams data packets without an end packet is cut off once the
    /// payload passes the transfer limit, instead of filling memory for as long as it likes.
    @Test func anEndlessUploadIsCutOffAtTheTransferLimit() throws {
        let limit = FingerprintModule.transferLimit(sizeHint: Self.template.count)
        let endless = Array(repeating: UInt8(0x5A), count: limit + 4096)
        let script = try ScriptedModule { command, _, _ in
            switch command.instruction {
            case .upChar:
                var bytes = ack(0x00)
                for frame in DataTransfer.frames(for: endless, packetSize: 128).dropLast() { frame.appendEncoded(to: &bytes) }
                return bytes
            case .templateCount: return ack(0x00, [0, 1])
            default: return r503Opening(command) ?? ack(0x01)
            }
        }
        let module = try connectedR503(script)
        let packets = Mutex(0)
        module.dataPacketObserver = { _, count in packets.withLock { $0 = count } }
        let error = expectThrows(ModuleError.self) { try module.uploadTemplate() }
        guard case .corruptedReply(.upChar, _) = error else {
            Issue.record("expected .corruptedReply, got \(String(describing: error))")
            return
        }
        // Cut off by the packet that passes the limit (refused before an observer sees it), not
        // after reading all the module sent (79 packets).
        #expect(packets.withLock { $0 } == limit / 128)
        #expect(try module.templateCount() == 1)  // the line is usable again
    }

    @Test func anUploadRefusedByTheModuleIsAModuleError() throws {
        let script = try ScriptedModule { command, _, _ in
            command.instruction == .upChar ? ack(0x0D) : (r503Opening(command) ?? ack(0x01))
        }
        let module = try connectedR503(script)
        let error = expectThrows(ModuleError.self) { try module.uploadTemplate() }
        #expect(error?.confirmationCode?.rawValue == 0x0D)
    }

    @Test(arguments: [PacketSize.bytes32, .bytes128, .bytes256])
    func downloadsInPacketsOfExactlyThePacketSize(_ size: PacketSize) throws {
        let template = Array(Self.template.prefix(1000))  // not a multiple of any packet size
        let script = try ScriptedModule { command, _, _ in
            switch command.instruction {
            case .downChar: ack(0x00)
            case .templateCount: ack(0x00, [0, 0])
            default: r503Opening(command, packetSizeCode: size.rawValue) ?? ack(0x01)
            }
        }
        let module = try connectedR503(script)
        try module.downloadTemplate(template, buffer: 2)
        _ = try module.templateCount()  // the data reached the module before this command
        let frames = script.dataFrames
        #expect(frames.count == (1000 + size.bytes - 1) / size.bytes)
        #expect(frames.dropLast().allSatisfy { $0.packetID == .data && $0.content.count == size.bytes })
        #expect(frames.last?.packetID == .end)
        #expect(frames.flatMap(\.content) == template)
        #expect(script.calls.first { $0.command.instruction == .downChar }?.command.parameters == [2])
    }

    @Test func uploadsAnImageWithTheProductInfoGeometry() throws {
        let pixels = (0..<(192 * 192)).map { UInt8(($0 % 16) * 17) }
        let image = try FingerprintImage(width: 192, height: 192, pixels: pixels)
        let script = try ScriptedModule { command, _, _ in
            switch command.instruction {
            case .upImage: ack(0x00) + DataTransfer.encoded(image.nibbles(), packetSize: 128)
            default: r503Opening(command) ?? ack(0x01)
            }
        }
        let module = try connectedR503(script)
        let received = try module.uploadImage()
        #expect(received.width == 192 && received.height == 192)
        #expect(received == image)
    }
}
