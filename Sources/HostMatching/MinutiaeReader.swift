import CLibfprint

/// The minutiae in a serialized libfprint print (`fp_print_serialize` bytes): one list per
/// image, 5 for an enrolled template, 1 for a probe.
///
/// The format (fp-print.c, unchanged from 1.90 to 1.94.9): "FP3", then a little-endian GVariant
/// `(issbymsmsia{sv}v)` — type, driver, device id, stored-on-device, finger, user name,
/// description, enroll date, an empty dictionary, and a variant that for type NBIS (2) holds
/// `(a(aiaiai))`: per image, the x, y and θ columns.
///
/// Why GLib's GVariant reader and not a parser of our own: GVariant's framing (offset tables
/// sized by the container's length, alignment padding, the "normal form" rules) is easy to get
/// subtly wrong, and GLib's reader is the one libfprint itself relies on, built to take
/// untrusted data: on malformed input it returns empty or zero values, never reads out of
/// bounds. What we check on top: the header, the types at every level, equal column lengths
/// and the value ranges NBIS produces.
enum MinutiaeReader {
    static let printTypeNBIS: Int32 = 2
    /// bozorth3's limit (MAX_BOZORTH_MINUTIAE), which libfprint applies when it extracts.
    static let maximumPerImage = 200

    static func images(inPrint bytes: ArraySlice<UInt8>) -> Result<[[Minutia]], Damage> {
        guard bytes.count > 3, Array(bytes.prefix(3)) == Array("FP3".utf8) else { return .failure(.notAPrint) }
        // g_bytes_new copies into malloc'd memory: aligned as GVariant needs, whatever the slice's start.
        let body = bytes.dropFirst(3)
        let gbytes = body.withUnsafeBufferPointer { g_bytes_new($0.baseAddress, $0.count) }!
        defer { g_bytes_unref(gbytes) }
        guard let root = withType("(issbymsmsia{sv}v)", { g_variant_new_from_bytes($0, gbytes, 0) }) else { return .failure(.notAPrint) }
        _ = g_variant_ref_sink(root)
        defer { g_variant_unref(root) }
        guard g_variant_n_children(root) == 10 else { return .failure(.notAPrint) }

        let typeValue = g_variant_get_child_value(root, 0)!
        let type = g_variant_get_int32(typeValue)
        g_variant_unref(typeValue)
        guard type == printTypeNBIS else { return .failure(.notNBIS(type: type)) }

        let boxed = g_variant_get_child_value(root, 9)!
        defer { g_variant_unref(boxed) }
        let data = g_variant_get_variant(boxed)!
        defer { g_variant_unref(data) }
        guard withType("(a(aiaiai))", { g_variant_is_of_type(data, $0) }) != 0 else { return .failure(.notNBIS(type: type)) }
        let list = g_variant_get_child_value(data, 0)!
        defer { g_variant_unref(list) }

        var images: [[Minutia]] = []
        for index in 0..<g_variant_n_children(list) {
            let image = g_variant_get_child_value(list, index)!
            defer { g_variant_unref(image) }
            let columns = (0..<3).map { column in int32Column(image, column) }
            let count = columns[0].count
            guard columns[1].count == count, columns[2].count == count else { return .failure(.unevenColumns(image: index)) }
            guard count <= maximumPerImage else { return .failure(.tooManyMinutiae(image: index, count: count)) }
            var minutiae: [Minutia] = []
            minutiae.reserveCapacity(count)
            for row in 0..<count {
                let minutia = Minutia(x: columns[0][row], y: columns[1][row], theta: columns[2][row])
                guard (-180...180).contains(minutia.theta), (0...5000).contains(minutia.x), (0...5000).contains(minutia.y) else {
                    return .failure(.outOfRange(image: index))
                }
                minutiae.append(minutia)
            }
            images.append(minutiae)
        }
        return .success(images)
    }

    private static func int32Column(_ tuple: OpaquePointer, _ index: Int) -> [Int32] {
        let value = g_variant_get_child_value(tuple, index)!
        defer { g_variant_unref(value) }
        var count = 0
        guard let start = g_variant_get_fixed_array(value, &count, MemoryLayout<Int32>.size) else { return [] }
        return Array(UnsafeBufferPointer(start: start.assumingMemoryBound(to: Int32.self), count: count))
    }

    /// A GVariantType is its type string (G_VARIANT_TYPE is a cast).
    private static func withType<R>(_ type: String, _ body: (OpaquePointer) -> R) -> R {
        type.withCString { body(OpaquePointer($0)) }
    }

    enum Damage: Error, Equatable, CustomStringConvertible {
        case notAPrint, notNBIS(type: Int32), unevenColumns(image: Int), tooManyMinutiae(image: Int, count: Int), outOfRange(image: Int)

        var description: String {
            switch self {
            case .notAPrint: "it is not a serialized libfprint print"
            case let .notNBIS(type): "it is a libfprint print of type \(type), not an NBIS minutiae print"
            case let .unevenColumns(image): "its image \(image) has x, y and θ columns of different lengths"
            case let .tooManyMinutiae(image, count): "its image \(image) has \(count) minutiae, more than NBIS's \(maximumPerImage)"
            case let .outOfRange(image): "its image \(image) has a minutia outside the ranges NBIS produces"
            }
        }
    }

    /// The minutiae of each image of an NBIS template (format 1), or why it cannot be read.
    static func minutiae(of template: HostTemplate, index: Int) throws(HostMatchingError) -> [[Minutia]] {
        let payload: ArraySlice<UInt8>
        switch TemplateEnvelope.unwrap(template.bytes) {
        case .success(let bytes): payload = bytes
        case .failure(let damage): throw .unreadableTemplate(index: index, message: damage.description)
        }
        switch images(inPrint: payload) {
        case .success(let images) where !images.isEmpty: return images
        case .success: throw .unreadableTemplate(index: index, message: "it holds no images")
        case .failure(let damage): throw .unreadableTemplate(index: index, message: damage.description)
        }
    }
}
