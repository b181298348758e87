import Foundation
import Glibc
import Posix
import Testing
@testable import SerialPort

@Suite struct SerialPortBehaviourTests {
    @Test func receiveReturnsNothingAtTheDeadline() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let port = try SerialPort.open(path: pty.slavePath)
        defer { port.close() }
        let deadline = ContinuousClock.now + .milliseconds(20)
        #expect(try port.receive(maxCount: 16, deadline: deadline) == [])
        #expect(ContinuousClock.now >= deadline)
    }

    @Test func receiveReturnsAtMostMaxCount() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let port = try SerialPort.open(path: pty.slavePath)
        defer { port.close() }
        try pty.master.writeAll([1, 2, 3, 4, 5])
        #expect(try receiveAll(port, count: 2) == [1, 2])
        #expect(try receiveAll(port, count: 3) == [3, 4, 5])
    }

    @Test func discardInputDropsPendingBytes() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let port = try SerialPort.open(path: pty.slavePath)
        defer { port.close() }
        try pty.master.writeAll([0x55, 0xEF, 0x01, 0x00])
        #expect(try port.fileDescriptor.waitReadable(deadline: .now + .seconds(30)))
        try port.discardInput()
        #expect(try port.receive(maxCount: 16, deadline: .now + .milliseconds(20)) == [])
        try pty.master.writeAll([0x07])
        #expect(try receiveAll(port, count: 1) == [0x07])
    }

    @Test func unsupportedBaudRatesAreRejectedWithTheAllowedList() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        #expect(serialError { _ = try SerialPort.open(path: pty.slavePath, baudRate: 12345) } == .unsupportedBaudRate(12345))
        let port = try SerialPort.open(path: pty.slavePath, baudRate: 115200)
        defer { port.close() }
        #expect(serialError { try port.setBaudRate(960_000) } == .unsupportedBaudRate(960_000))
        #expect(port.baudRate == 115200)
        #expect(pty.clientBaudRate() == 115200)
        let text = SerialPortError.unsupportedBaudRate(960_000).description
        #expect(text.contains("960000"))
        for rate in BaudRate.supported { #expect(text.contains(String(rate))) }
    }

    @Test func aMissingDeviceListsTheSerialDevicesThatExist() {
        let path = "/dev/ttyFPMOD-missing"
        let error = serialError { _ = try SerialPort.open(path: path) }
        let candidates = DeviceDiagnostics.existingSerialDevices()
        #expect(error == .noSuchDevice(path: path, candidates: candidates))
        let text = error?.description ?? ""
        #expect(text.contains(path))
        #expect(text.contains("enable_uart=1"))
        for candidate in candidates { #expect(text.contains(candidate)) }
    }

    @Test func deviceListingKeepsOnlySerialNamesInNumericOrder() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        for name in ["ttyUSB10", "ttyUSB2", "ttyACM0", "ttyAMA0", "serial0", "tty1", "null"] {
            #expect(FileManager.default.createFile(atPath: directory + "/" + name, contents: nil))
        }
        try FileManager.default.createDirectory(atPath: directory + "/serial/by-id", withIntermediateDirectories: true)
        #expect(symlink("../../ttyUSB2", directory + "/serial/by-id/usb-Silicon_Labs_CP2102-if00") == 0)
        let found = DeviceDiagnostics.existingSerialDevices(devDirectory: directory)
        #expect(found == [
            directory + "/serial/by-id/usb-Silicon_Labs_CP2102-if00",
            directory + "/serial0", directory + "/ttyACM0", directory + "/ttyAMA0",
            directory + "/ttyUSB2", directory + "/ttyUSB10",
        ])
    }

    @Test func aRegularFileIsNotATerminal() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeTemporaryDirectory(directory) }
        let path = directory + "/not-a-tty"
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let error = serialError { _ = try SerialPort.open(path: path) }
        #expect(error == .notATerminal(path: path))
        #expect(error?.description.contains("/dev/serial0") == true)
    }

    @Test func aSecondOpenIsBusyAndNamesTheHolder() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let first = try SerialPort.open(path: pty.slavePath)
        let error = serialError { _ = try SerialPort.open(path: pty.slavePath) }
        #expect(error == .busy(path: pty.slavePath, holderPID: getpid()))
        #expect(error?.description.contains("process \(getpid())") == true)
        #expect(error?.description.contains("fpmod run") == true)
        first.close()
        let second = try SerialPort.open(path: pty.slavePath)
        second.close()
    }

    @Test func aClosedPortRefusesToBeUsed() throws {
        let pty = try PseudoTerminal()
        defer { pty.close() }
        let port = try SerialPort.open(path: pty.slavePath)
        port.close()
        port.close()  // idempotent
        let operation = "use \(pty.slavePath) after close()"
        #expect(serialError { try port.send([1]) } == .io(.badFileDescriptor, operation: operation))
        #expect(serialError { _ = try port.receive(maxCount: 1, deadline: .now) } == .io(.badFileDescriptor, operation: operation))
        #expect(serialError { try port.discardInput() } == .io(.badFileDescriptor, operation: operation))
    }

    @Test func lockHolderIsFoundInProcLocks() {
        let table = """
        1: POSIX  ADVISORY  WRITE 812 00:19:1033 0 EOF
        2: FLOCK  ADVISORY  WRITE 4242 00:1a:7 0 EOF
        2: -> FLOCK  ADVISORY  WRITE 999 00:1a:7 0 EOF
        3: FLOCK  ADVISORY  WRITE 77 103:02:7 0 EOF
        """
        let device = UInt64(0x1a)  // major 0, minor 0x1a
        #expect(DeviceDiagnostics.lockHolder(device: device, inode: 7, locksTable: table) == 4242)
        #expect(DeviceDiagnostics.lockHolder(device: UInt64(0x103 << 8 | 2), inode: 7, locksTable: table) == 77)
        #expect(DeviceDiagnostics.lockHolder(device: device, inode: 8, locksTable: table) == nil)
    }

    @Test func errorTextsSayWhatToDo() {
        let denied = SerialPortError.permissionDenied(path: "/dev/ttyAMA0").description
        #expect(denied.contains("dialout"))
        #expect(denied.contains("sudo usermod -aG dialout $USER"))
        let busy = SerialPortError.busy(path: "/dev/ttyAMA0", holderPID: nil).description
        #expect(busy.contains("another program"))
        #expect(busy.contains("ModemManager"))
        let gone = SerialPortError.disconnected(path: "/dev/ttyUSB0").description
        #expect(gone.contains("cable"))
        let io = SerialPortError.io(.ioError, operation: "read /dev/ttyS0").description
        #expect(io.contains("EIO") && io.contains("read /dev/ttyS0"))
    }
}
