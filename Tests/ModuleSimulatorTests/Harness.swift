import Foundation
import FingerprintProtocol
import ModuleSimulator
import SerialPort
import Testing

/// A running simulator and a host on the other end of its pseudo-terminal (a real termios
/// port opened on the slave), speaking frames.
final class Harness {
    let server: ModuleSimulatorServer
    var port: SerialPort
    var decoder = FrameDecoder()
    let directory: String

    init(_ configuration: ModuleSimulatorServer.Configuration = .init(), directory: String? = nil) throws {
        self.directory = directory ?? Harness.temporaryDirectory()
        server = try ModuleSimulatorServer(configuration)
        // Open before start, so the boot byte is not flushed away by the open.
        port = try SerialPort.open(path: server.devicePath, baudRate: 57600, exclusive: false)
        server.start()
        bootBytes = try readUntilBoot()
    }

    /// What the module sent when it powered up (`55`, or `00 55` with the glitch).
    private(set) var bootBytes: [UInt8] = []

    func readUntilBoot(seconds: Double = 2) throws -> [UInt8] {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var bytes: [UInt8] = []
        while ContinuousClock.now < deadline, !bytes.contains(0x55) {
            bytes += try port.receive(maxCount: 16, deadline: deadline)
        }
        return bytes
    }

    deinit {
        port.close()
        server.stop()
    }

    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "fpmod-simtests-" + UUID().uuidString.prefix(8)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func send(_ bytes: [UInt8]) throws { try port.send(bytes) }
    func send(_ command: Command, address: UInt32 = Frame.defaultAddress) throws {
        try send(command.frame(address: address).encoded())
    }

    /// Raw bytes arriving within `seconds`.
    func readRaw(for seconds: Double = 0.3) throws -> [UInt8] {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        var bytes: [UInt8] = []
        while ContinuousClock.now < deadline {
            bytes += try port.receive(maxCount: 65536, deadline: deadline)
        }
        return bytes
    }

    /// The next frame, or nil after `seconds` of nothing.
    func nextFrame(within seconds: Double = 2) throws -> Frame? {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while true {
            if let frame = decoder.nextFrame() { return frame }
            if ContinuousClock.now >= deadline { return nil }
            decoder.feed(try port.receive(maxCount: 65536, deadline: deadline))
        }
    }

    /// Sends `command` and returns the ack.
    func ack(_ command: Command, address: UInt32 = Frame.defaultAddress) throws -> Acknowledgement {
        try send(command, address: address)
        let frame = try #require(try nextFrame(), "no reply to \(command)")
        return try Acknowledgement(frame: frame)
    }

    func code(_ command: Command) throws -> UInt8 { try ack(command).code.rawValue }

    /// Sends an upload command and collects its data packets up to the end packet.
    func upload(_ command: Command) throws -> (ack: Acknowledgement, payload: [UInt8], packets: [Frame]) {
        let reply = try ack(command)
        guard reply.isSuccess else { return (reply, [], []) }
        var packets: [Frame] = []
        while true {
            let frame = try #require(try nextFrame(), "transfer stopped after \(packets.count) packets")
            packets.append(frame)
            if frame.packetID == .end { break }
        }
        return (reply, packets.flatMap(\.content), packets)
    }

    /// DownChar/DownImage: the ack, then the payload as data/end packets.
    func download(_ command: Command, payload: [UInt8], packetSize: Int = 128) throws -> Acknowledgement {
        let reply = try ack(command)
        if reply.isSuccess { try send(DataTransfer.encoded(payload, packetSize: packetSize)) }
        return reply
    }

    /// Capture into a buffer: GenImg then Img2Tz; returns the Img2Tz code (or GenImg's failure).
    func capture(into buffer: UInt8) throws -> UInt8 {
        let genImg = try code(.genImg)
        guard genImg == 0 else { return genImg }
        return try code(.img2Tz(buffer: buffer))
    }

    /// Enrolls the finger currently scripted as `touch NAME 2` into `slot`.
    func enroll(_ name: String, slot: Int) throws {
        server.touch(name, times: 2)
        #expect(try capture(into: 1) == 0)
        #expect(try code(.genImg) == 0x02)  // the host sees the lift
        #expect(try capture(into: 2) == 0)
        #expect(try code(.regModel) == 0)
        #expect(try code(.store(buffer: 1, slot: slot)) == 0)
    }

    /// Asserts that nothing arrives for a while.
    func expectSilence(_ seconds: Double = 0.3) throws {
        let bytes = try readRaw(for: seconds)
        #expect(bytes.isEmpty, "expected silence, got \(bytes.hexString)")
    }
}
