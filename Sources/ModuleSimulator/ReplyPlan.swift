import FingerprintProtocol

/// What the module sends in answer to one frame: one or more segments, each after a module
/// processing delay (AutoLogin sends several acks; SoftRst sends its ack, resets, then `55`).
public struct ReplyPlan: Equatable, Sendable {
    public struct Segment: Equatable, Sendable {
        /// Processing time before the segment's first byte leaves the module.
        public var delay: Duration
        public var frames: [Frame]
        /// Bare bytes after the frames (the boot byte `55` after SoftRst).
        public var trailingBytes: [UInt8]

        public init(delay: Duration, frames: [Frame], trailingBytes: [UInt8] = []) {
            self.delay = delay
            self.frames = frames
            self.trailingBytes = trailingBytes
        }

        public var bytes: [UInt8] {
            var bytes: [UInt8] = []
            for frame in frames { frame.appendEncoded(to: &bytes) }
            return bytes + trailingBytes
        }
    }

    public var segments: [Segment]
    /// The instruction answered (nil for boot bytes).
    public var instruction: Instruction?

    public init(segments: [Segment], instruction: Instruction? = nil) {
        self.segments = segments
        self.instruction = instruction
    }

    /// All frames in order (what a test expects to read).
    public var frames: [Frame] { segments.flatMap(\.frames) }
    public var bytes: [UInt8] { segments.flatMap(\.bytes) }
}
