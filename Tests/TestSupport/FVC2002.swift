import Glibc
import Imaging
import Testing

/// The real impressions of FVC2002's B sets (`../shared/data/fvc2002`, or `FPMOD_FVC2002`):
/// DB1_B … DB4_B, fingers 101…110 × impressions 1…8. Named by FPMOD_FVC2002, a missing folder
/// fails the tests that need them, loudly: the matcher's claims rest on them, so CI names it
/// (`.ci/run`). Without the variable, a clone that has no `../shared/data/fvc2002` beside it (a
/// new user's) skips those tests, each saying where the data was looked for; FPMOD_FVC2002=skip
/// skips them anywhere.
public enum FVC2002 {
    public static let databases = ["DB1_B", "DB2_B", "DB3_B", "DB4_B"]

    public static var directory: String {
        if let set = getenv("FPMOD_FVC2002") { return String(cString: set) }
        // The package sits at …/main (or a clone of it), the data at …/shared/data beside it.
        var folder = #filePath
        for _ in 0..<3 { folder = String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)]) }
        let parent = String(folder[..<(folder.lastIndex(of: "/") ?? folder.startIndex)])
        return parent + "/shared/data/fvc2002"
    }

    /// Whether this run was told the data cannot exist here, or no folder was named and the
    /// default one is not there.
    public static var skipped: Bool {
        if directory == "skip" { return true }
        guard getenv("FPMOD_FVC2002") == nil else { return false }
        var info = stat()
        return stat(directory + "/DB1_B", &info) != 0
    }

    /// Why the tests that need the impressions were skipped.
    public static var skipReason: Comment {
        "FVC2002 not found at \(directory): set FPMOD_FVC2002=DIR (the folder of DB1_B … DB4_B)"
    }

    /// Impression `impression` (1…8) of finger `finger` (101…110), whole.
    public static func image(_ database: String, finger: Int, impression: Int) throws -> GreyImage {
        try PNGFile.read("\(directory)/\(database)/\(finger)_\(impression).png")
    }

    /// The same, as the FPC1020 sees it: the 192 × 192 centre.
    public static func crop(_ database: String, finger: Int, impression: Int) throws -> GreyImage {
        try image(database, finger: finger, impression: impression).centreCropped(width: 192, height: 192)
    }
}
