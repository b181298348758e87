import Glibc
import Imaging
import Testing

/// Impressions of generated fingers, mild enough (the whole 256×256 image, ±5°, ±4 px) that
/// NBIS's result does not hinge on the small-sensor limits the bench measures.
enum Fingers {
    static let gentle: ImpressionMaker = {
        var maker = ImpressionMaker()
        maker.sensorWidth = 256
        maker.sensorHeight = 256
        maker.maximumRotation = 5
        maker.maximumShift = 4
        maker.noiseSigma = 4
        return maker
    }()

    static func impressions(finger seed: UInt64, count: Int, from first: Int = 0) -> [GreyImage] {
        let master = SyntheticFinger(seed: seed).image()
        return (first..<(first + count)).map { gentle.impression(of: master, index: $0, seed: seed) }
    }
}

/// The NIST prints, when installed (Debian 13's libfprint-2-tests) or pointed to by
/// FPMOD_NIST_PRINTS; tests that need them are skipped otherwise.
enum NIST {
    static var directory: String {
        getenv(NISTPrints.environmentVariable).map { String(cString: $0) } ?? NISTPrints.standardDirectory
    }

    static var available: Bool { access("\(directory)/\(NISTPrints.names[0]).png", R_OK) == 0 }

    static let skipReason: Comment = """
        NIST prints not found in \(NISTPrints.standardDirectory): install libfprint-2-tests (Debian 13) \
        or set FPMOD_NIST_PRINTS to a folder holding arch.png, loop-right.png, tented_arch.png, whorl.png
        """
}
