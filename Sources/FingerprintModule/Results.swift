import FingerprintProtocol

/// GenImg / GetImageEx / GetImageFree.
public enum CaptureResult: Equatable, Sendable {
    /// An image is in the image buffer.
    case captured
    /// Nobody is touching the sensor (`02`): poll again.
    case noFinger
    /// The capture failed (`03`), or GetImageEx judged the image poor (`07`).
    case failed(ConfirmationCode)
}

/// Img2Tz: turning the image into a feature file.
public enum FeatureResult: Equatable, Sendable {
    case ok
    /// The image is too messy (`06`) or has too few features (`07`), or is too dry/wet (`04`/`05`):
    /// ask for the finger to be placed again.
    case poorImage(ConfirmationCode)
    /// There is no valid image in the buffer (`15`): capture first.
    case noImage
}

/// Search / HighSpeedSearch.
public enum SearchResult: Equatable, Sendable {
    case found(SearchHit)
    case notFound
}

/// RegModel: merging the two feature buffers into a template.
public enum ModelResult: Equatable, Sendable {
    case merged
    /// The two captures are not the same finger (`0A`) — the right "same finger" test (protocol.md §9 #11).
    case fingersDiffer
}

/// The door loop's question: whose finger is this?
public enum IdentifyOutcome: Equatable, Sendable {
    case match(slot: Int, score: Int)
    case noMatch
    case noFinger
    /// Capture or feature extraction failed; the code says why (`03`, `06`, `07`, …).
    case poorImage(ConfirmationCode)
}

/// When each identify stage started and ended (`Monotonic.nanoseconds()`); 0 = stage not run.
public struct IdentifyTiming: Sendable, Equatable {
    public var captureStart: UInt64 = 0
    public var captureEnd: UInt64 = 0
    public var extractEnd: UInt64 = 0
    public var searchEnd: UInt64 = 0
    public init() {}
}

/// One ack of a multi-step AutoEnroll/AutoIdentify (Grow R50x layout, protocol.md §2.3).
public struct AutoStep: Equatable, Sendable {
    public var code: ConfirmationCode
    public var step: UInt8
    /// The slot the step refers to (enroll: the slot being filled; identify: the match).
    public var slot: Int
    /// AutoIdentify only.
    public var score: Int?
}

/// What happened after SetSysPara changed the baud rate (protocol.md §4.3).
public struct BaudChange: Equatable, Sendable {
    /// The rate that was asked for.
    public var requested: Int
    /// The rate at which the module answered afterwards.
    public var answeredAt: Int
    /// True when the module still talks at the old rate: the change applies after a power cycle.
    public var pendingPowerCycle: Bool { answeredAt != requested }

    public init(requested: Int, answeredAt: Int) {
        self.requested = requested
        self.answeredAt = answeredAt
    }
}
