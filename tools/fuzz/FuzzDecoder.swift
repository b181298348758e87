// libFuzzer entry point for FrameDecoder: built by tools/fuzz-decoder.sh together with the
// FingerprintProtocol sources (SwiftPM executables cannot link libFuzzer's own main).
// Invariants checked on every input: no crash, every frame out is well formed and re-encodes
// to bytes that decode to the same frame, and the buffer never grows beyond one frame.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var decoder = FrameDecoder(expectedAddress: size % 2 == 0 ? nil : 0xFFFF_FFFF)
    // Feed in chunks whose sizes come from the input, so chunking is fuzzed as well.
    var index = 0
    while index < bytes.count {
        let chunk = Int(bytes[index] % 17) + 1
        decoder.feed(bytes[index..<min(index + chunk, bytes.count)])
        index += chunk
        while let frame = decoder.nextFrame() {
            precondition(Frame.lengthRange.contains(frame.lengthField))
            var again = FrameDecoder()
            again.feed(frame.encoded())
            precondition(again.nextFrame() == frame)
            if frame.packetID == .acknowledge { _ = try? Acknowledgement(frame: frame) }
        }
        precondition(decoder.bufferedByteCount <= Frame.prefixSize + Frame.lengthRange.upperBound + 17)
    }
    return 0
}
