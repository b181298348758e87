import Foundation
import Glibc
import Posix
import SerialPort
import Testing

/// Runs the real `fpmod` binary with a pseudo-terminal as its stdin, stdout and stderr, set up
/// like a login terminal (canonical input, echo on), so a test sees exactly what a user would
/// see on screen, including whatever the terminal echoes of what is typed.
final class TerminalSession {
    private let terminal: PseudoTerminal
    private let slave: Int32
    private let process = Process()
    /// Everything that appeared on the screen so far.
    private(set) var screen = ""
    /// Where `waitFor` starts looking, so the same prompt shown twice is waited for twice.
    private var searchFrom: String.Index

    init(_ cli: CLI, _ arguments: [String]) throws {
        terminal = try PseudoTerminal()
        slave = Glibc.open(terminal.slavePath, O_RDWR | O_NOCTTY)
        #expect(slave >= 0)
        var settings = termios()
        tcgetattr(slave, &settings)
        settings.c_lflag |= tcflag_t(ECHO | ICANON | ISIG | ECHOE | ECHOK)
        settings.c_iflag |= tcflag_t(ICRNL)
        settings.c_oflag |= tcflag_t(OPOST | ONLCR)
        tcsetattr(slave, TCSANOW, &settings)
        let handle = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = arguments
        process.environment = cli.environment
        process.standardInput = handle
        process.standardOutput = handle
        process.standardError = handle
        searchFrom = screen.startIndex
        try process.run()
    }

    deinit {
        // SIGKILL: the test process blocks SIGTERM on some threads, and children inherit the mask.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        Glibc.close(slave)
        terminal.close()
    }

    /// Reads the screen until `text` appears after the previous match; records an issue (and
    /// returns false) if it has not appeared after `seconds` — a hang guard, not a timing check.
    @discardableResult
    func waitFor(_ text: String, seconds: Int = 60, sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            if let range = screen.range(of: text, range: searchFrom..<screen.endIndex) {
                searchFrom = range.upperBound
                return true
            }
            if ContinuousClock.now > deadline || !pump(until: deadline) {
                Issue.record("\"\(text)\" never appeared; the screen was:\n\(screen)", sourceLocation: sourceLocation)
                return false
            }
        }
    }

    /// Types `line` and Enter.
    func type(_ line: String) {
        try? terminal.master.writeAll(Array((line + "\r").utf8))
    }

    /// Waits for fpmod to exit and returns its exit status, with the screen read to the end.
    /// A process still waiting for input after `seconds` is killed and recorded as an issue.
    func finish(seconds: Int = 60, sourceLocation: SourceLocation = #_sourceLocation) -> Int32 {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while process.isRunning {
            if ContinuousClock.now > deadline {
                Issue.record("fpmod did not exit; the screen was:\n\(screen)", sourceLocation: sourceLocation)
                kill(process.processIdentifier, SIGKILL)
                break
            }
            _ = pump(until: ContinuousClock.now + .milliseconds(100))
        }
        process.waitUntilExit()
        while pump(until: ContinuousClock.now) {}
        return process.terminationStatus
    }

    /// One poll and read of the master; false when nothing arrived before `deadline`.
    private func pump(until deadline: ContinuousClock.Instant) -> Bool {
        guard let ready = try? poll([(terminal.master, .readable)], deadline: deadline), !ready[0].isEmpty,
              let bytes = try? terminal.master.read(maxCount: 4096), !bytes.isEmpty else { return false }
        screen += String(decoding: bytes, as: UTF8.self)
        return true
    }
}
