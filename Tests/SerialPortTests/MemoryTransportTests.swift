import Foundation
import Testing
@testable import SerialPort

@Suite struct MemoryTransportTests {
    @Test func bytesCrossInBothDirections() throws {
        let (host, module) = try MemoryTransport.pair()
        try host.send(awkwardBytes)
        #expect(module.pendingInputCount == awkwardBytes.count)
        #expect(try receiveAll(module, count: awkwardBytes.count) == awkwardBytes)
        try module.send([0xEF, 0x01])
        #expect(try host.receive(maxCount: 1, deadline: .now + .seconds(30)) == [0xEF])
        #expect(try host.receive(maxCount: 8, deadline: .now + .seconds(30)) == [0x01])
        #expect(host.description == "memory:a @ 57600")
    }

    @Test func receiveReturnsNothingAtTheDeadline() throws {
        let (host, _) = try MemoryTransport.pair()
        let deadline = ContinuousClock.now + .milliseconds(20)
        #expect(try host.receive(maxCount: 8, deadline: deadline) == [])
        #expect(ContinuousClock.now >= deadline)
    }

    @Test func aSendFromAnotherThreadWakesAWaitingReceive() throws {
        let (host, module) = try MemoryTransport.pair()
        let sendable = SendableBox(module)
        Thread.detachNewThread { try? sendable.value.send([0x55]) }
        #expect(try host.receive(maxCount: 8, deadline: .now + .seconds(30)) == [0x55])
    }

    @Test func discardInputDropsOnlyThisEndsBytes() throws {
        let (host, module) = try MemoryTransport.pair()
        try module.send([1, 2, 3])
        try host.send([9])
        try host.discardInput()
        #expect(try host.receive(maxCount: 8, deadline: .now) == [])
        #expect(try module.receive(maxCount: 8, deadline: .now) == [9])
    }

    @Test func disconnectFailsBothEnds() throws {
        let (host, module) = try MemoryTransport.pair()
        module.disconnect()
        #expect(serialError { _ = try host.receive(maxCount: 8, deadline: .now + .seconds(30)) } == .disconnected(path: "memory:a"))
        #expect(serialError { try module.send([1]) } == .disconnected(path: "memory:b"))
    }

    @Test func baudRateIsValidatedPerEnd() throws {
        let (host, module) = try MemoryTransport.pair()
        try host.setBaudRate(115200)
        #expect(host.baudRate == 115200)
        #expect(module.baudRate == 57600)
        #expect(serialError { try host.setBaudRate(1_000_000) } == .unsupportedBaudRate(1_000_000))
    }
}

/// Carries a Sendable reference into a @Sendable closure without capturing a tuple.
struct SendableBox<T: Sendable>: Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
