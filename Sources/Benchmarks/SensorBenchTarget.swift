import Administration
import Foundation
import HostMatching
import HostReader
import ImageSensor
import ImageSensorSimulator
import Imaging
import Posix
import TemplateStore

/// The host reader a sensor bench measures: a simulated FPC1020A in this process (synthetic
/// fingers, or the folders of --sim-images), a `HostReader` on a template store in a temporary
/// directory (the user's store is never touched), and a library of `templates` fingers.
///
/// Enrolling 1000 fingers through the reader would take 1000 × 8 captures of prompts and
/// extraction (minutes), so only the fingers that are touched are enrolled through the reader; the rest
/// of the library is filled with copies of a few filler templates, each made once per run by
/// the same matcher from synthetic impressions and written to the store as its own user at
/// its own slot. A search compares the probe with every template of the library (the matcher
/// never stops early), so a copy costs what a distinct finger of its size costs.
public final class SensorBenchTarget {
    /// Synthetic fingers enrolled through the reader (the ones the touches use).
    public static let syntheticGenuine = 3
    public static let syntheticStrangers = 3
    /// Distinct filler templates made per run; the library repeats them to size.
    public static let distinctFillers = 20

    public let sensor: SimulatedImageSensor
    public let recorder: RecordingSensor
    public let reader: HostReader
    public let store: TemplateStore
    public let imagesDirectory: String?
    /// The fingers enrolled through the reader: (sensor finger name, user).
    public let genuine: [(finger: String, user: String)]
    /// Fingers enrolled nowhere.
    public let strangers: [String]
    public let fillers: Int
    public let distinctFillers: Int
    /// Mean time of one enrollment through the reader (its 8 captures, extraction, store).
    public let enrollNanoseconds: Int64
    /// Time to make the distinct filler templates and write all fillers to the store.
    public let fillNanoseconds: Int64
    private let directory: String

    public init(imagesDirectory: String?, templates requested: Int, progress: (String) -> Void) throws {
        let templates = max(1, requested)
        let (genuineNames, strangerNames, fillerFolders) = try Self.fingers(in: imagesDirectory)
        self.imagesDirectory = imagesDirectory
        directory = NSTemporaryDirectory() + "fpmod-sensor-bench-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        do {
            sensor = try SimulatedImageSensor(imagesDirectory: imagesDirectory, seed: 1)
            recorder = RecordingSensor(sensor)
            store = try TemplateStore(databasePath: directory + "/store.db", keyPath: directory + "/store.key")
            reader = try HostReader(sensor: recorder, store: store, capacity: max(HostReader.defaultCapacity, templates))
            strangers = strangerNames

            let enrolled = Array(genuineNames.prefix(templates))
            progress("fpmod bench: enrolling \(enrolled.count) finger\(enrolled.count == 1 ? "" : "s") through the host reader…")
            var genuine: [(finger: String, user: String)] = []
            let enrollStart = Monotonic.nanoseconds()
            for (number, finger) in enrolled.enumerated() {
                let user = "user-\(number)"
                sensor.autoTouch = finger
                try reader.enroll(user: try UserName(validating: user), label: "right-index")
                genuine.append((finger, user))
            }
            sensor.autoTouch = nil
            sensor.lift()
            self.genuine = genuine
            enrollNanoseconds = enrolled.isEmpty ? 0 : Int64(Monotonic.nanoseconds() - enrollStart) / Int64(enrolled.count)

            let fillStart = Monotonic.nanoseconds()
            fillers = templates - genuine.count
            let made = fillerFolders.isEmpty
                ? try Self.fillerTemplates(min(fillers, Self.distinctFillers), progress: progress)
                : try Self.fillerTemplates(fromFolders: fillers > 0 ? fillerFolders : [], width: sensor.identity.width,
                                           height: sensor.identity.height, progress: progress)
            distinctFillers = made.count
            try Self.addFillers(fillers, from: made, to: store, capacity: max(HostReader.defaultCapacity, templates))
            fillNanoseconds = Int64(Monotonic.nanoseconds() - fillStart)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// Synthetic fingers, or DIR's folders in name order: the last quarter are strangers; of the
    /// others the first half are enrolled through the reader and the rest (from 3 folders on)
    /// are the fillers' fingers, so a library of real prints costs what real prints cost.
    public static func fingers(in imagesDirectory: String?) throws -> (genuine: [String], strangers: [String], fillers: [String]) {
        guard let imagesDirectory else {
            return ((0..<syntheticGenuine).map { "bench-finger-\($0)" }, (0..<syntheticStrangers).map { "bench-stranger-\($0)" }, [])
        }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: imagesDirectory)) ?? []
        let folders = names.filter { name in
            var isDirectory: ObjCBool = false
            return !name.hasPrefix(".") && FileManager.default.fileExists(atPath: imagesDirectory + "/" + name, isDirectory: &isDirectory)
                && isDirectory.boolValue
        }.sorted()
        guard !folders.isEmpty else {
            throw BenchError(.usage, "--sim-images \(imagesDirectory) holds no finger folders; put each finger's 8-bit grey PNGs in \(imagesDirectory)/NAME/.")
        }
        let held = folders.count >= 2 ? (folders.count + 3) / 4 : 0
        let known = Array(folders.dropLast(held))
        let enrolled = known.count >= 2 ? (known.count + 1) / 2 : known.count
        return (Array(known.prefix(enrolled)), Array(folders.suffix(held)), Array(known.dropFirst(enrolled)).map { imagesDirectory + "/" + $0 })
    }

    /// One template per folder, from its PNGs (fitted to the sensor); a folder with fewer
    /// images than an enrollment takes gets impressions (turned, moved, noisy) of its first.
    public static func fillerTemplates(fromFolders folders: [String], width: Int, height: Int, progress: (String) -> Void) throws -> [HostTemplate] {
        guard !folders.isEmpty else { return [] }
        progress("fpmod bench: making \(folders.count) filler templates from \(folders.joined(separator: ", "))…")
        let matcher = MinutiaeMatcher()
        let stages = MinutiaeMatcher.defaultEnrollCaptures
        var templates: [HostTemplate] = []
        for (number, folder) in folders.enumerated() {
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { $0.lowercased().hasSuffix(".png") && !$0.hasPrefix(".") }.sorted()
            var images: [GreyImage] = []
            for file in files {
                do { images.append(try PNGFile.read(folder + "/" + file).fitted(width: width, height: height)) } catch {
                    throw BenchError(.data, "cannot read \(folder)/\(file): \(error); put 8-bit grey PNGs there.")
                }
            }
            guard let first = images.first else {
                throw BenchError(.usage, "\(folder) holds no PNG images; put the finger's 8-bit grey PNGs there.")
            }
            if images.count < stages + 3 {
                var maker = ImpressionMaker()
                maker.sensorWidth = width
                maker.sensorHeight = height
                images = maker.impressions(of: first, count: stages + 3, seed: UInt64(number + 1))
            }
            do {
                templates.append(try matcher.enroll(images: images, minimumUsable: MinutiaeMatcher.enrollCaptureRange.lowerBound))
            } catch {
                throw BenchError(.data, "the matcher cannot enroll \(folder) as a filler finger (\(error)); use clearer prints there.")
            }
        }
        return templates
    }

    /// `count` templates of distinct synthetic fingers, made by the matcher from impressions
    /// as a sensor would give them (a finger with too few usable images is skipped).
    public static func fillerTemplates(_ count: Int, progress: (String) -> Void) throws -> [HostTemplate] {
        guard count > 0 else { return [] }
        progress("fpmod bench: making \(count) filler templates…")
        let matcher = MinutiaeMatcher()
        let stages = MinutiaeMatcher.defaultEnrollCaptures
        var templates: [HostTemplate] = []
        var seed: UInt64 = 0xF111_E500
        while templates.count < count, seed < 0xF111_E500 + UInt64(count * 3) {
            defer { seed += 1 }
            let master = SyntheticFinger(seed: seed).image()
            let images = ImpressionMaker().impressions(of: master, count: stages + 3, seed: seed)
            do throws(HostMatchingError) {
                templates.append(try matcher.enroll(images: images, minimumUsable: MinutiaeMatcher.enrollCaptureRange.lowerBound))
            } catch {
                if case .notEnoughUsableImages = error { continue }
                throw error
            }
        }
        guard !templates.isEmpty else {
            throw BenchError(.data, "no synthetic filler finger gave enough usable images to enroll: the matcher rejects what Imaging's SyntheticFinger makes (too few ridge details or a low quality score per image).")
        }
        return templates
    }

    /// Writes `count` fillers (users filler-0…) at the free slots, copies of `made` in turn.
    public static func addFillers(_ count: Int, from made: [HostTemplate], to store: TemplateStore, capacity: Int) throws {
        guard count > 0 else { return }
        let taken = Set(try store.allFingers().map(\.slot))
        let free = (0..<capacity).filter { !taken.contains($0) }
        try store.transaction {
            for number in 0..<count {
                let user = try UserName(validating: "filler-\(number)")
                try store.addUser(name: user)
                try store.addFinger(user: user, label: "right-index", slot: free[number], template: made[number % made.count].bytes,
                                    quality: 100)
            }
        }
    }

    /// Slot → user, as the store has it.
    public func owners() throws -> [Int: String] {
        var owners: [Int: String] = [:]
        for finger in try store.allFingers() { owners[finger.slot] = finger.user }
        return owners
    }

    /// Every template of the library, in slot order: the floor's gallery.
    public func libraryTemplates() throws -> [HostTemplate] {
        try store.allFingers().map { HostTemplate(bytes: try store.template(atSlot: $0.slot)) }
    }

    public var templates: Int { genuine.count + fillers }

    public func close() {
        reader.close()
        try? FileManager.default.removeItem(atPath: directory)
    }
}
