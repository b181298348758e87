import Foundation
@testable import Diagnostics
@testable import fpmod
import Glibc
import SerialPort
import Testing

/// The fact gathering against real pseudo-terminals and files.
@Suite struct DoctorSystemFactsTests {
    @Test func freePortOpensAndHeldPortIsBusyWithItsHolder() throws {
        let terminal = try PseudoTerminal()
        defer { terminal.close() }
        let free = SystemFacts.port(path: terminal.slavePath, source: .commandLine)
        #expect(free.open == .opened)
        #expect(free.isPseudoTerminal)
        #expect(free.node?.readWritable == true)

        let holder = try SerialPort.open(path: terminal.slavePath)
        defer { holder.close() }
        let held = SystemFacts.port(path: terminal.slavePath, source: .commandLine)
        guard case let .busy(pid, command) = held.open else {
            Issue.record("expected busy, got \(held.open)")
            return
        }
        #expect(pid == getpid())
        #expect(command != nil)
    }

    @Test func missingPathAndRegularFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(getpid())-\(UInt32.random(in: 0...UInt32.max))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }

        let missing = SystemFacts.port(path: folder + "/ttyUSB9", source: .commandLine)
        #expect(missing.node == nil)
        if case .noSuchDevice = missing.open {} else { Issue.record("expected noSuchDevice, got \(missing.open)") }

        let file = folder + "/not-a-tty"
        #expect(FileManager.default.createFile(atPath: file, contents: Data([1]), attributes: [.posixPermissions: 0o640]))
        #expect(SystemFacts.port(path: file, source: .commandLine).open == .notATerminal)
        let node = try #require(SystemFacts.node(file))
        #expect(node.mode == 0o640)
        #expect(node.modeText == "0640")
        #expect(node.owner == SystemFacts.userName(geteuid()))
    }

    @Test func thisProcessIsInTheProcessTable() throws {
        let table = try #require(ProcessTable.read())
        let me = try #require(table.first { $0.pid == getpid() })
        #expect(!me.arguments.isEmpty)
    }
}
