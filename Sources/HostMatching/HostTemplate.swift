/// One enrolled finger as the host matcher keeps it: libfprint's serialized FpPrint (its
/// `fp_print_serialize` bytes, holding the minutiae of each enroll image) in a checked frame
/// (`TemplateEnvelope`). Opaque to the rest of fpmod, which stores it encrypted as it does
/// module templates.
public struct HostTemplate: Sendable, Equatable {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }
}

/// What a 1:N search found: the position of the matching template in the gallery given, and its
/// bozorth3 score (≥ the matcher's `threshold`; unrelated fingers mostly score 0–30).
public struct HostMatch: Sendable, Equatable {
    public let index: Int
    public let score: Int

    public init(index: Int, score: Int) {
        self.index = index
        self.score = score
    }
}
