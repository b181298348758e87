import Administration
import Foundation
import HostReader
import ImageSensorSimulator
import Imaging
import TemplateStore
import Testing

/// A real store in a temporary folder, the simulated FPC1020 and a host reader over both.
/// Fingers are named: the simulated sensor makes a synthetic finger per name (or serves
/// DIR/NAME/*.png when `imagesDirectory` is given).
final class ReaderBench {
    let directory: String
    let store: TemplateStore
    let sensor: SimulatedImageSensor
    let reader: HostReader

    init(imagesDirectory: String? = nil, directory: String? = nil, capacity: Int = HostReader.defaultCapacity) throws {
        self.directory = directory ?? Self.temporaryDirectory()
        store = try TemplateStore(databasePath: self.directory + "/store.db", keyPath: self.directory + "/key")
        sensor = try SimulatedImageSensor(imagesDirectory: imagesDirectory)
        reader = try HostReader(sensor: sensor, store: store, capacity: capacity)
        reader.fingerTimeout = .seconds(5)
    }

    static func temporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "fpmod-hostreader-\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Enrolls with `finger` (default "<user>-<label>") put down at every wait, as the CLI's --sim-finger does.
    @discardableResult
    func enroll(_ user: String, label: String = "right-index", finger: String? = nil, captures: Int = 8, admin: Bool = false,
                duress: Bool = false, progress: (EnrollProgress) -> Void = { _ in }) throws -> EnrollResult {
        sensor.autoTouch = finger ?? "\(user)-\(label)"
        defer { sensor.autoTouch = nil }
        return try reader.enroll(user: try UserName(validating: user), displayName: nil, label: try FingerLabel(validating: label), captures: captures,
                                 admin: admin, duress: duress, progress: progress)
    }

    func identify(_ finger: String) throws -> MatchOutcome {
        sensor.touch(finger)
        return try reader.identify()
    }

    func verify(_ user: String, finger: String) throws -> MatchOutcome {
        sensor.touch(finger)
        return try reader.verify(user: user)
    }

    var auditEntries: [AuditEntry] { (try? store.auditEntries(limit: 1000)) ?? [] }
    var auditEvents: [String] { auditEntries.map(\.event) }

    deinit {
        reader.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// Writes `count` impressions of a generated finger as DIR/NAME/00.png, 01.png… (what
/// `--sim-images DIR` serves); `blankFirst` puts an image with no finger before them.
func writeFingerImages(directory: String, name: String, seed: UInt64, count: Int, blankFirst: Bool = false) throws {
    let folder = directory + "/" + name
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let master = SyntheticFinger(seed: seed).image()
    var images = ImpressionMaker().impressions(of: master, count: count, seed: seed)
    if blankFirst { images.insert(GreyImage(width: 192, height: 192, filledWith: 255), at: 0) }
    for (index, image) in images.enumerated() {
        try PNGFile.write(image, to: folder + "/" + String(format: "%02d.png", index))
    }
}

extension MatchOutcome {
    var matched: MatchFound? {
        if case .match(let found) = self { return found }
        return nil
    }
}
