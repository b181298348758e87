// Writing `--json` results: one document per line on stdout, so `fpmod … --json | jq` and line
// readers both work.

/// Prints JSON results to stdout.
public enum JSONOutput {
    /// The line printed for `value`: compact, sorted keys, ending in a newline.
    public static func line(_ value: JSONValue) -> String { value.encoded + "\n" }

    /// Writes `value` as one line to stdout.
    public static func print(_ value: JSONValue) { StandardStreams.writeOutput(line(value)) }
}
