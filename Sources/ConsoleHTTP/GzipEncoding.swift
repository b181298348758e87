import CZlib

/// An answer's body compressed for `Content-Encoding: gzip` (zlib's deflate with a gzip
/// header), for a client that said it accepts it: a fleet hub's page of users is JSON that
/// shrinks about tenfold, and a door on a slow link reads a tenth of it.
public enum GzipEncoding {
    /// Below this, compressing costs more than it saves.
    public static let smallestWorthIt = 1_024

    /// Whether an `Accept-Encoding` header accepts gzip (a `q=0` refuses it).
    public static func accepted(by header: String?) -> Bool {
        guard let header else { return false }
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.filter { $0 != " " && $0 != "\t" }.lowercased() }
            guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return weight > 0
        }
        return false
    }

    /// `bytes` as a gzip member (`deflateInit2` with windowBits 31, `deflate` to Z_FINISH,
    /// `deflateEnd`); nil when zlib refused (out of memory), and the caller sends them as they are.
    public static func compress(_ bytes: [UInt8], level: Int32 = 6) -> [UInt8]? {
        var stream = z_stream()
        guard fpmod_deflate_init2(&stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))))
        let status = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out -> Int32 in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = UInt32(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }
}
