/// One enrolled finger as the host matcher keeps it: libfprint's serialized FpPrint (its
/// `fp_print_serialize` bytes, holding the minutiae of each enroll image) in a checked frame
/// (`TemplateEnvelope`). Opaque to the rest of fpmod, which stores it encrypted as it does
/// module templates.
public struct HostTemplate: Sendable, Equatable {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }
}

/// What a 1:N search found: the position of the matching template in the gallery given, and its
/// score (≥ the matcher's `threshold`): bozorth3's for `NBISMatcher`, the count of agreeing
/// minutia pairs for `MinutiaeMatcher` (the two are on similar scales, not the same numbers).
public struct HostMatch: Sendable, Equatable {
    public let index: Int
    public let score: Int

    public init(index: Int, score: Int) {
        self.index = index
        self.score = score
    }
}
