/// The public-domain NIST example prints Debian ships in libfprint-2-tests (Debian 13 on; not in
/// Debian 12), used to measure and test the host matcher.
public enum NISTPrints {
    public static let standardDirectory = "/usr/share/installed-tests/libfprint-2/prints"
    public static let names = ["arch", "loop-right", "tented_arch", "whorl"]
    /// Overrides the folder (a copy unpacked from the .deb on a Debian 12 development host).
    public static let environmentVariable = "FPMOD_NIST_PRINTS"

    /// The folder to use: the environment variable's, else the standard one.
    public static func directory(environment: [String: String]) -> String {
        environment[environmentVariable] ?? standardDirectory
    }

    /// The prints in `directory`, by name; throws if one is missing or unreadable.
    public static func load(from directory: String) throws(ImagingError) -> [(name: String, image: GreyImage)] {
        var prints: [(name: String, image: GreyImage)] = []
        for name in names { prints.append((name, try PNGFile.read("\(directory)/\(name).png"))) }
        return prints
    }
}
