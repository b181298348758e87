import Foundation
import FingerprintModule
import FingerprintProtocol
import SerialPort
import Synchronization

/// The far end of a `MemoryTransport` pair, played by a test: a thread decodes the host's
/// frames with the real `FrameDecoder` and answers each command with whatever bytes the test's
/// handler returns (real frames built by FingerprintProtocol, garbage, or nothing).
final class ScriptedModule: Sendable {
    /// One command as received, with how many times that instruction had been seen before.
    struct Call: Sendable {
        var command: Command
        var occurrence: Int
    }

    typealias Handler = @Sendable (_ command: Command, _ occurrence: Int, _ hostBaudRate: Int) -> [UInt8]

    let host: MemoryTransport
    let end: MemoryTransport
    private let handler: Handler
    private let state = Mutex(State())
    private let done = DispatchSemaphore(value: 0)

    private struct State {
        var calls: [Call] = []
        var dataFrames: [Frame] = []
        var stopped = false
    }

    init(handler: @escaping Handler) throws {
        (host, end) = try MemoryTransport.pair()
        self.handler = handler
        let thread = Thread { [self] in run() }
        thread.start()
    }

    deinit { stop() }

    func stop() {
        let wasRunning = state.withLock { state in
            defer { state.stopped = true }
            return !state.stopped
        }
        if wasRunning { done.wait() }
    }

    var calls: [Call] { state.withLock { $0.calls } }
    var instructions: [UInt8] { calls.map(\.command.instruction.rawValue) }
    var dataFrames: [Frame] { state.withLock { $0.dataFrames } }

    /// Sends bytes unprompted (a boot byte, a late ack).
    func emit(_ bytes: [UInt8]) { try? end.send(bytes) }

    private func run() {
        defer { done.signal() }
        var decoder = FrameDecoder()
        var counts: [UInt8: Int] = [:]
        while !state.withLock({ $0.stopped }) {
            guard let bytes = try? end.receive(maxCount: 4096, deadline: .now + .milliseconds(20)) else { return }
            decoder.feed(bytes)
            while let frame = decoder.nextFrame() {
                switch frame.packetID {
                case .command:
                    guard let command = Command(content: frame.content) else { continue }
                    let code = command.instruction.rawValue
                    let occurrence = counts[code, default: 0]
                    counts[code] = occurrence + 1
                    state.withLock { $0.calls.append(Call(command: command, occurrence: occurrence)) }
                    let reply = handler(command, occurrence, host.baudRate)
                    if !reply.isEmpty { try? end.send(reply) }
                case .data, .end:
                    state.withLock { $0.dataFrames.append(frame) }
                case .acknowledge:
                    continue
                }
            }
        }
    }
}

/// Reply builders.
func ack(_ code: UInt8, _ payload: [UInt8] = [], address: UInt32 = Frame.defaultAddress) -> [UInt8] {
    Acknowledgement(code: ConfirmationCode(rawValue: code), payload: payload).frame(address: address).encoded()
}

func echo(_ command: Command, address: UInt32 = Frame.defaultAddress) -> [UInt8] {
    command.frame(address: address).encoded()
}

/// The same frame with its checksum broken.
func corrupted(_ bytes: [UInt8]) -> [UInt8] {
    var bytes = bytes
    bytes[bytes.count - 1] ^= 0x5A
    return bytes
}

func systemParameters(capacity: Int = 200, packetSizeCode: Int = 2, baudMultiplier: Int = 6,
                      address: UInt32 = Frame.defaultAddress) -> [UInt8] {
    SystemParameters(capacity: capacity, address: address, packetSizeCode: packetSizeCode,
                     baudMultiplier: baudMultiplier).encoded()
}

let r503Info = ProductInfo(model: "R503", batch: "B001", serial: "SN123456", hardwareMajor: 1, hardwareMinor: 2,
                           sensorModel: "FPC1021", imageWidth: 192, imageHeight: 192, templateSize: 1536,
                           capacity: 200)

/// Short deadlines so failure paths do not slow the suite down.
func fastTimeouts() -> CommandTimeouts {
    var timeouts = CommandTimeouts()
    timeouts.ordinary = .milliseconds(500)
    timeouts.flashWrite = .milliseconds(500)
    timeouts.searchBase = .milliseconds(500)
    timeouts.searchPerPage = .zero
    timeouts.dataPacket = .milliseconds(500)
    timeouts.interByteGap = .milliseconds(100)
    timeouts.bootWait = .milliseconds(30)
    timeouts.handshakeRetryGap = .milliseconds(5)
    timeouts.probe = .milliseconds(200)
    return timeouts
}

/// What a healthy R503 answers to the opening sequence; nil for anything else.
func r503Opening(_ command: Command, packetSizeCode: Int = 2) -> [UInt8]? {
    switch command.instruction {
    case .handshake, .verifyPassword: ack(0x00)
    case .readSysPara: ack(0x00, systemParameters(capacity: 200, packetSizeCode: packetSizeCode))
    case .readProductInfo: ack(0x00, r503Info.encoded())
    default: nil
    }
}

/// A driver for an R503 whose far end is `script`, already connected.
func connectedR503(_ script: ScriptedModule, password: UInt32 = 0) throws -> FingerprintModule {
    let module = FingerprintModule(transport: script.host, password: password, family: .r50x)
    module.timeouts = fastTimeouts()
    try module.connect()
    return module
}
