import Foundation
import Glibc
import Testing
@testable import Posix

@Suite struct PollTests {
    @Test func pollReturnsNothingWhenTheDeadlinePasses() throws {
        let (reader, writer) = try makePipe()
        defer { try? reader.close(); try? writer.close() }
        let deadline = ContinuousClock.now + .milliseconds(20)
        let events = try poll([(reader, .readable)], deadline: deadline)
        #expect(events == [[]])
        #expect(ContinuousClock.now >= deadline)
        #expect(try reader.waitReadable(deadline: .now) == false)
    }

    @Test func pollReportsEachDescriptorSeparately() throws {
        let (quietReader, quietWriter) = try makePipe()
        let (busyReader, busyWriter) = try makePipe()
        defer { [quietReader, quietWriter, busyReader, busyWriter].forEach { try? $0.close() } }
        try busyWriter.writeAll([1])
        let events = try poll([(quietReader, .readable), (busyReader, .readable)], deadline: nil)
        #expect(events == [[], .readable])
    }

    @Test func pollReportsHangUpOfAPipeWithoutAsking() throws {
        let (reader, writer) = try makePipe()
        defer { try? reader.close() }
        try writer.close()
        let events = try poll([(reader, .readable)], deadline: .now + .seconds(5))
        #expect(events[0].contains(.hangUp))
        #expect(try reader.waitReadable(deadline: nil))
    }

    @Test func timeoutsRoundUpToWholeMilliseconds() {
        #expect(milliseconds(until: nil) == -1)
        #expect(milliseconds(until: .now - .seconds(1)) == 0)
        let later = milliseconds(until: .now + .microseconds(1500))
        #expect(later == 2 || later == 1)  // 1.5 ms rounds up to 2 (1 if a little time passed)
        #expect(milliseconds(until: .now + .seconds(3_000_000)) == Int32.max)
    }

    @Test func wakeupPipeWakesAPollOnAnotherThread() throws {
        let wakeup = try WakeupPipe()
        #expect(try wakeup.fileDescriptor.waitReadable(deadline: .now) == false)
        onAnotherThread { wakeup.signal() }
        let woke = try wakeup.fileDescriptor.waitReadable(deadline: .now + .seconds(30))
        #expect(woke)
        #expect(wakeup.drain())
        #expect(try wakeup.fileDescriptor.waitReadable(deadline: .now) == false)
        #expect(wakeup.drain() == false)
    }

    @Test func manySignalsBeforeADrainAreOneWakeup() throws {
        let wakeup = try WakeupPipe()
        for _ in 0..<100 { wakeup.signal() }
        #expect(wakeup.drain())
        #expect(try wakeup.fileDescriptor.waitReadable(deadline: .now) == false)
    }

    @Test func signalWatcherReceivesASignalThroughItsDescriptor() throws {
        // A process-wide kill(getpid(), …) would go to whichever test-runner thread does not
        // block SIGHUP and terminate the run, because the test process has many threads already
        // (the reason SignalWatcher must be created before threads start). pthread_kill directs
        // the signal at this thread, where the watcher blocked it, so it stays pending for the
        // signalfd — the same path a process-directed signal takes in a service that blocked it
        // in main().
        let watcher = try SignalWatcher(signals: [SIGHUP, SIGUSR2])
        #expect(try watcher.read() == [])
        #expect(pthread_kill(pthread_self(), SIGHUP) == 0)
        #expect(try watcher.fileDescriptor.waitReadable(deadline: .now + .seconds(30)))
        #expect(try watcher.read() == [SIGHUP])
        #expect(pthread_kill(pthread_self(), SIGUSR2) == 0)
        #expect(try watcher.read() == [SIGUSR2])
        #expect(try watcher.read() == [])
    }
}
