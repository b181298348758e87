/// Why a bench could not run, with what to do: its input (`usage`) or the images it was given
/// (`data`), or a file it could not write (`io`). Errors of the parts underneath (module, simulator, store) pass through unchanged.
public struct BenchError: Error, CustomStringConvertible, Sendable {
    public enum Kind: Sendable { case usage, data, io }
    public let kind: Kind
    public let description: String

    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
