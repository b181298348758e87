// Writing `--json` results: one document per line on stdout, so `fpmod … --json | jq` and line
// readers both work.

#if canImport(Glibc)
    import Glibc
#endif

/// Prints JSON results to stdout.
public enum JSONOutput {
    /// The line printed for `value`: compact, sorted keys, ending in a newline.
    public static func line(_ value: JSONValue) -> String { value.encoded + "\n" }

    /// Writes `value` as one line to stdout (fd 1), retrying short writes.
    public static func print(_ value: JSONValue) {
        var bytes = Array(line(value).utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return  // stdout is gone (closed pipe); nothing sensible is left to do.
            }
            bytes = bytes.dropFirst(written)
        }
    }
}
