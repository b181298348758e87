// Writing to stdout and stderr by file descriptor. Swift 6 rejects the C globals `stdout` and
// `stderr` as shared mutable state, and results (stdout) must stay apart from progress (stderr).

// Both escape what could act on the terminal (`Printable`): commands escape the names they
// print themselves, and this is the net for any text from a user or a device they did not.

#if canImport(Glibc)
    import Glibc
#endif
import PrintableText

/// The process's standard output and error streams.
public enum StandardStreams {
    /// Writes `text` to stdout (fd 1), line breaks and tabs as they are, any other control
    /// character escaped visibly; add the newline yourself.
    public static func writeOutput(_ text: String) { write(Printable.escaped(text, keepingLineBreaks: true), to: 1) }

    /// Writes lines to stdout, each escaped as `writeOutput` escapes (no control character of
    /// theirs reaches the terminal) and ended by `ending` as it is: CSV's CRLF.
    public static func writeOutput(lines: [String], ending: String) {
        write(lines.map { Printable.escaped($0) + ending }.joined(), to: 1)
    }

    /// Writes `text` to stderr (fd 2) like `writeOutput`.
    public static func writeError(_ text: String) { write(Printable.escaped(text, keepingLineBreaks: true), to: 2) }

    /// Writes all bytes, retrying short writes and EINTR. A closed pipe ends the write quietly:
    /// there is nobody left to tell.
    static func write(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
