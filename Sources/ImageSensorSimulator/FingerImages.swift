import Glibc
import ImageSensor
import Imaging

/// Where a simulated sensor's pictures of a finger come from: PNG files in a folder per finger,
/// or generated fingers. Pure apart from reading the files; the sensor owns the capture counts.
enum FingerImages: Sendable {
    /// DIR/NAME/*.png, in name order.
    case directory(String)
    /// `SyntheticFinger`s named by a hash of the finger's name and this seed.
    case synthetic(seed: UInt64)

    /// The FPC1020's window.
    static let side = 192

    /// Impressions vary as separate touches do, but mildly: the host matcher (threshold 45)
    /// must still match captures of one generated finger at 192×192, where the bench's harsher
    /// ±15°, ±12 px, σ 8 lose a few percent of genuine pairs.
    static let impressions: ImpressionMaker = {
        var maker = ImpressionMaker()
        maker.sensorWidth = side
        maker.sensorHeight = side
        maker.maximumRotation = 6
        maker.maximumShift = 6
        maker.noiseSigma = 4
        return maker
    }()

    /// What an empty sensor reads: flat, so `FingerCoverage` finds no ridges.
    static let blank = GreyImage(width: side, height: side, filledWith: 255)

    /// Capture number `index` (0, 1, …) of `finger`. `masters` caches generated fingers.
    func image(of finger: String, index: Int, masters: inout [String: GreyImage]) throws(ImageSensorError) -> GreyImage {
        switch self {
        case let .synthetic(seed):
            let master: GreyImage
            if let cached = masters[finger] {
                master = cached
            } else {
                master = SyntheticFinger(seed: Self.fingerSeed(finger, seed: seed)).image()
                masters[finger] = master
            }
            return Self.impressions.impression(of: master, index: index, seed: Self.fingerSeed(finger, seed: seed))
        case let .directory(directory):
            // A name is one folder under DIR, never a path out of it.
            guard !finger.contains("/"), finger != ".", finger != ".." else { throw .noImages(folder: directory + "/" + finger) }
            let files = try Self.pngFiles(in: directory + "/" + finger)
            let path = files[index % files.count]
            let image: GreyImage
            do { image = try PNGFile.read(path) } catch {
                throw .unreadableImage(path: path, reason: error.description)
            }
            return image.fitted(width: Self.side, height: Self.side)
        }
    }

    /// The PNG files of one finger's folder, sorted by name; throws when there are none.
    static func pngFiles(in folder: String) throws(ImageSensorError) -> [String] {
        guard let stream = opendir(folder) else { throw .noImages(folder: folder) }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.lowercased().hasSuffix(".png"), !name.hasPrefix(".") { names.append(name) }
        }
        guard !names.isEmpty else { throw .noImages(folder: folder) }
        return names.sorted().map { folder + "/" + $0 }
    }

    /// FNV-1a of the name, mixed with the seed: the same finger for the same name in every
    /// process and on every machine (Swift's `Hasher` is randomly seeded per process).
    static func fingerSeed(_ finger: String, seed: UInt64) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in finger.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash ^ (seed &* 0x9E37_79B9_7F4A_7C15)
    }
}
