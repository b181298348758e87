import Glibc
import Imaging
import Posix

/// Writes a folder of PNG captures for the simulated sensor's `imagesDirectory`: DIR/NAME/
/// capture-00.png … , the same impressions a sensor without a folder generates for NAME and
/// `seed`. For tests and demos that need image files but must not depend on installed prints.
public enum FingerImageFolder {
    /// Writes `captures` images of `finger` into `directory`/`finger` (created, mode 0755), and
    /// returns their paths in capture order.
    @discardableResult
    public static func write(finger: String, captures: Int, directory: String, seed: UInt64 = 1) throws -> [String] {
        let folder = directory + "/" + finger
        if !FileSystem.exists(folder) { try FileSystem.makeDirectory(folder, mode: 0o755) }
        let source = FingerImages.synthetic(seed: seed)
        var masters: [String: GreyImage] = [:]
        var paths: [String] = []
        for index in 0..<captures {
            let path = folder + "/capture-" + (index < 10 ? "0" : "") + String(index) + ".png"
            try PNGFile.write(try source.image(of: finger, index: index, masters: &masters), to: path)
            paths.append(path)
        }
        return paths
    }
}
