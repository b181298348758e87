import Dispatch
import Glibc
import Synchronization
import Testing
@testable import GPIO

@Suite struct MemoryChipInputTests {
    @Test func edgeMakesDescriptorReadableUntilDrained() throws {
        let clock = StepClock()
        let chip = MemoryChip(lineNames: ["touch", "relay"], clock: { clock.read() })
        let touch = try chip.requestInput(offset: 0, consumer: "test", edges: .both, bias: .asIs, activeLow: false)
        #expect(touch.fileDescriptor >= 0)
        #expect(!isReadable(touch.fileDescriptor))
        #expect(try touch.readEvents().isEmpty)

        chip.drive(offset: 0, level: true)
        #expect(isReadable(touch.fileDescriptor))
        chip.drive(offset: 0, level: false)
        let events = try touch.readEvents()
        #expect(events.map(\.kind) == [.rising, .falling])
        #expect(events.allSatisfy { $0.offset == 0 })
        #expect(events[0].timestampNanoseconds < events[1].timestampNanoseconds)
        #expect(!isReadable(touch.fileDescriptor))
    }

    @Test func drivingTheSameLevelTwiceIsOneEdge() throws {
        let chip = MemoryChip(lineCount: 1)
        let line = try chip.requestInput(offset: 0, consumer: "t", edges: .both, bias: .asIs, activeLow: false)
        chip.drive(offset: 0, level: true)
        chip.drive(offset: 0, level: true)
        #expect(try line.readEvents().count == 1)
    }

    @Test func pollBlockedInAnotherThreadWakesOnEdge() throws {
        let chip = MemoryChip(lineCount: 1)
        let line = try chip.requestInput(offset: 0, consumer: "t", edges: .both, bias: .asIs, activeLow: false)
        let fd = line.fileDescriptor
        let woke = Mutex(false)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            woke.withLock { $0 = isReadable(fd, waitingUpTo: 10_000) }
            done.signal()
        }
        chip.drive(offset: 0, level: true)
        done.wait()
        #expect(woke.withLock { $0 })
    }

    @Test func activeLowValueAndEdgesAreLogical() throws {
        let chip = MemoryChip(lineCount: 1)
        chip.drive(offset: 0, level: true)  // idle: R503 touch output high
        let touch = try chip.requestInput(offset: 0, consumer: "t", edges: .both, bias: .asIs, activeLow: true)
        #expect(try touch.value() == false)

        chip.drive(offset: 0, level: false)  // finger
        #expect(try touch.value() == true)
        #expect(try touch.readEvents().map(\.kind) == [.rising])
    }

    @Test func risingOnlyIgnoresFallingEdges() throws {
        let chip = MemoryChip(lineCount: 1)
        let line = try chip.requestInput(offset: 0, consumer: "t", edges: .rising, bias: .asIs, activeLow: false)
        chip.drive(offset: 0, level: true)
        chip.drive(offset: 0, level: false)
        chip.drive(offset: 0, level: true)
        #expect(try line.readEvents().map(\.kind) == [.rising, .rising])
    }

    @Test func fallingOnlyIgnoresRisingEdges() throws {
        let chip = MemoryChip(lineCount: 1)
        let line = try chip.requestInput(offset: 0, consumer: "t", edges: .falling, bias: .asIs, activeLow: false)
        chip.drive(offset: 0, level: true)
        #expect(!isReadable(line.fileDescriptor))
        chip.drive(offset: 0, level: false)
        #expect(try line.readEvents().map(\.kind) == [.falling])
    }

    @Test func noEdgeDetectionHasNoDescriptor() throws {
        let chip = MemoryChip(lineCount: 1)
        let line = try chip.requestInput(offset: 0, consumer: "t", edges: .none, bias: .asIs, activeLow: false)
        #expect(line.fileDescriptor == -1)
        chip.drive(offset: 0, level: true)
        #expect(try line.value() == true)
        #expect(try line.readEvents().isEmpty)
    }

    @Test func pullUpDecidesAnUndrivenLine() throws {
        let chip = MemoryChip(lineCount: 1)
        let button = try chip.requestInput(offset: 0, consumer: "t", edges: .both, bias: .pullUp, activeLow: true)
        #expect(try button.value() == false)  // pulled high = not pressed
        chip.drive(offset: 0, level: false)  // press: shorted to ground
        #expect(try button.value() == true)
        chip.float(offset: 0)  // release: the pull-up takes over
        #expect(try button.value() == false)
        #expect(try button.readEvents().map(\.kind) == [.rising, .falling])
    }

    @Test func edgesBeforeTheRequestAreNotReported() throws {
        let chip = MemoryChip(lineCount: 1)
        chip.drive(offset: 0, level: true)
        let line = try chip.requestInput(offset: 0, consumer: "t", edges: .both, bias: .asIs, activeLow: false)
        #expect(!isReadable(line.fileDescriptor))
        #expect(try line.value() == true)
    }

    @Test func concurrentDrivingLosesNoEdge() throws {
        let chip = MemoryChip(lineCount: 4)
        let lines = try (0..<4).map {
            try chip.requestInput(offset: $0, consumer: "t", edges: .both, bias: .asIs, activeLow: false)
        }
        let toggles = 500
        let counts = Mutex([Int](repeating: 0, count: 4))
        DispatchQueue.concurrentPerform(iterations: 5) { worker in
            if worker == 4 {
                // A reader draining while the writers run, like the event loop would.
                for _ in 0..<200 {
                    for line in lines {
                        let n = (try? line.readEvents().count) ?? 0
                        counts.withLock { $0[line.offset] += n }
                    }
                }
            } else {
                for index in 0..<toggles { chip.drive(offset: worker, level: index % 2 == 0) }
            }
        }
        for line in lines {
            let n = try line.readEvents().count
            counts.withLock { $0[line.offset] += n }
        }
        #expect(counts.withLock { $0 } == [toggles, toggles, toggles, toggles])
    }
}
