import Glibc

/// Reads a secret from a terminal without showing it: the terminal's echo (termios `ECHO`) is off
/// while the line is typed and restored afterwards, also when the user presses Ctrl-C, so a
/// passphrase never appears on screen or in a terminal's scrollback.
public enum HiddenLine {
    /// `isatty(3)`.
    public static func isTerminal(_ descriptor: FileDescriptor) -> Bool {
        isatty(descriptor.rawValue) != 0
    }

    /// One line from standard input with echo off when it is a terminal (`tcgetattr`/`tcsetattr`
    /// on fd 0); a plain `readLine` otherwise. Nil at the end of input.
    ///
    /// `prompt` goes to stderr only once the echo is off: what was typed before it appeared (with
    /// the echo still on) is discarded (`TCSAFLUSH`), what is typed after it is kept.
    public static func read(prompt: String = "") -> String? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else {
            writePrompt(prompt)
            return readLine(strippingNewline: true)
        }
        var quiet = saved
        quiet.c_lflag &= ~tcflag_t(ECHO)
        // Enter still moves to the next line, so the next prompt starts on its own line.
        quiet.c_lflag |= tcflag_t(ECHONL)
        restoreOnInterrupt(saved)
        _ = tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        writePrompt(prompt)
        defer {
            // TCSANOW: keep what the user already typed for the next question.
            _ = tcsetattr(STDIN_FILENO, TCSANOW, &saved)
            signal(SIGINT, SIG_DFL)
            signal(SIGTERM, SIG_DFL)
        }
        return readLine(strippingNewline: true)
    }

    private static func writePrompt(_ prompt: String) {
        guard !prompt.isEmpty else { return }
        let bytes = Array(prompt.utf8)
        _ = bytes.withUnsafeBytes { Glibc.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    /// The settings to put back if a signal ends the process while echo is off. Written before the
    /// handler is installed and only read by it, on the one thread that reads the terminal.
    nonisolated(unsafe) private static var savedSettings = termios()

    private static func restoreOnInterrupt(_ settings: termios) {
        savedSettings = settings
        let handler: @convention(c) (Int32) -> Void = { signalNumber in
            _ = tcsetattr(STDIN_FILENO, TCSANOW, &HiddenLine.savedSettings)
            signal(signalNumber, SIG_DFL)
            raise(signalNumber)
        }
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
    }
}
