/// One enrolled finger as the host matcher keeps it: libfprint's serialized FpPrint (its
/// `fp_print_serialize` bytes, holding the minutiae of each enroll image) in a checked frame
/// (`TemplateEnvelope`). Opaque to the rest of fpmod, which stores it encrypted as it does
/// module templates.
public struct HostTemplate: Sendable, Equatable {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }
}

extension HostTemplate {
    /// The template format this matcher reads (`MinutiaeGallery` refuses every other).
    public static let currentFormat = Int(TemplateEnvelope.fpmodFormat)
    /// The formats of fpmod's earlier matchers, refused as `HostMatchingError.olderTemplateFormat`
    /// (such a finger must be enrolled again), each with what made it.
    public static let olderFormats: [Int: String] = [
        Int(TemplateEnvelope.libfprintFormat): "made by fpmod's first matcher, libfprint's NBIS",
        Int(TemplateEnvelope.minutiaeOnlyFormat): "made by fpmod's matcher before it kept the ridges' directions",
        Int(TemplateEnvelope.directionsFormat): "made by fpmod's matcher before it kept the ridges themselves",
    ]

    /// The format its header names, read without decoding or checking the rest (for a survey
    /// of a store, `fpmod doctor`); nil when the bytes do not start with a host-template header
    /// (a module's template, or damage). A template of `currentFormat` may still be damaged:
    /// only `MinutiaeGallery` reading it says it is usable.
    public var format: Int? { TemplateEnvelope.format(of: bytes).map(Int.init) }
}

/// What a 1:N search found: the position of the matching template in the gallery given, and its
/// score: bozorth3's for `NBISMatcher` (≥ its threshold); for `MinutiaeMatcher` its best
/// impression's cylinder similarity in thousandths, which may lie below the single threshold
/// when the template's two best impressions admitted it together (`MatchCriteria`). The two
/// are on similar scales, not the same numbers.
public struct HostMatch: Sendable, Equatable {
    public let index: Int
    public let score: Int

    public init(index: Int, score: Int) {
        self.index = index
        self.score = score
    }
}
