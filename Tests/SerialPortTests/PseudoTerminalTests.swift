import Foundation
import Glibc
import Posix
import Testing
@testable import SerialPort

@Suite struct PseudoTerminalTests {
    @Test func rawBytesPassUnchangedBothWays() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let port = try SerialPort.open(path: pty.slavePath)
        defer { port.close() }

        try port.send(awkwardBytes)
        #expect(try readFromMaster(pty.master, count: awkwardBytes.count) == awkwardBytes)

        try pty.master.writeAll(awkwardBytes)
        #expect(try receiveAll(port, count: awkwardBytes.count) == awkwardBytes)
    }

    @Test func theSlaveIsRawBeforeAnyClientConfiguresIt() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        // A client that does no termios set-up of its own (pyserial-like tools may not).
        let client = try FileDescriptor.open(pty.slavePath, O_RDWR | O_NOCTTY | O_NONBLOCK)
        defer { try? client.close() }
        var settings = termios()
        #expect(tcgetattr(client.rawValue, &settings) == 0)
        #expect(settings.c_lflag & tcflag_t(ICANON | ECHO | ISIG) == 0)
        #expect(settings.c_iflag & tcflag_t(IXON | ICRNL) == 0)
        #expect(settings.c_oflag & tcflag_t(OPOST) == 0)

        try client.writeAll(awkwardBytes)
        #expect(try readFromMaster(pty.master, count: awkwardBytes.count) == awkwardBytes)
    }

    @Test func clientBaudRateShowsEverySupportedRate() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        #expect(pty.clientBaudRate() == 57600)
        let port = try SerialPort.open(path: pty.slavePath, baudRate: 9600)
        defer { port.close() }
        #expect(pty.clientBaudRate() == 9600)
        for rate in BaudRate.supported.reversed() {
            try port.setBaudRate(rate)
            #expect(port.baudRate == rate)
            #expect(pty.clientBaudRate() == rate, "rate \(rate)")
        }
        #expect(BaudRate.supported.count == 12)
    }

    @Test func linkPointsAtTheSlaveReplacesStaleLinksAndIsRemovedOnClose() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let linkPath = directory + "/ttyFP0"
        #expect(symlink("/dev/pts/nonexistent-from-an-old-run", linkPath) == 0)

        let pty = try PseudoTerminal()
        try pty.link(at: linkPath)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: linkPath) == pty.slavePath)

        let port = try SerialPort.open(path: linkPath)
        #expect(port.resolvedPath == pty.slavePath)
        #expect(port.description == "\(linkPath) → \(pty.slavePath) @ 57600")
        try port.send([0xEF, 0x01])
        #expect(try readFromMaster(pty.master, count: 2) == [0xEF, 0x01])
        port.close()

        pty.close()
        var info = stat()
        #expect(lstat(linkPath, &info) == -1 && errno == ENOENT)
        pty.close()  // idempotent
    }

    @Test func linkRefusesToReplaceARegularFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let path = directory + "/precious"
        #expect(FileManager.default.createFile(atPath: path, contents: Data("keep".utf8)))
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let error = serialError { try pty.link(at: path) }
        guard case .io(let errno, _)? = error else {
            Issue.record("expected an io error, got \(String(describing: error))")
            return
        }
        #expect(errno == .fileExists)
        #expect(FileManager.default.contents(atPath: path) == Data("keep".utf8))
    }

    @Test func closingThePseudoTerminalDisconnectsTheClient() throws {
        let pty = try PseudoTerminal()
        let port = try SerialPort.open(path: pty.slavePath)
        defer { port.close() }
        pty.close()
        #expect(serialError { _ = try port.receive(maxCount: 16, deadline: .now + .seconds(30)) } == .disconnected(path: pty.slavePath))
        #expect(serialError { try port.send([1, 2, 3]) } == .disconnected(path: pty.slavePath))
    }
}
