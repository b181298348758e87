import ImageSensor
import Imaging
import Testing
@testable import ImageSensorSimulator
import TestSupport

/// Captures from DIR/NAME/*.png: name order, cycling, any size fitted to 192×192, and errors
/// that name the missing folder.
@Suite struct ImageFolderTests {
    @Test func capturesComeFromTheFingersFilesInNameOrderCycling() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let paths = try FingerImageFolder.write(finger: "alice", captures: 3, directory: scratch.path)
        #expect(paths.map { $0.split(separator: "/").last! } == ["capture-00.png", "capture-01.png", "capture-02.png"])
        let sensor = try SimulatedImageSensor(imagesDirectory: scratch.path)
        #expect(sensor.identity.connection.contains(scratch.path))
        sensor.place("alice")
        let expected = try paths.map { try PNGFile.read($0).pixels }
        let seen = try (0..<4).map { _ in try sensor.captureFinger().image.pixels }
        #expect(seen == expected + [expected[0]])
    }

    @Test func imagesOfAnySizeAreFittedToTheSensor() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let master = SyntheticFinger(seed: 7).image()
        try Fixture.makeFolder(scratch.path + "/gina")
        // Larger than the sensor: its centre is cut out; smaller: scaled up first.
        try PNGFile.write(master.scaled(width: 300, height: 280), to: scratch.path + "/gina/a.png")
        try PNGFile.write(master.centreCropped(width: 120, height: 150), to: scratch.path + "/gina/b.png")
        let sensor = try SimulatedImageSensor(imagesDirectory: scratch.path)
        sensor.place("gina")
        let large = try sensor.capture(), small = try sensor.capture()
        #expect(large.width == 192 && large.height == 192 && small.width == 192 && small.height == 192)
        #expect(large.pixels == master.scaled(width: 300, height: 280).centreCropped(width: 192, height: 192).pixels)
        #expect(FingerCoverage().evaluate(small).holdsFinger)
    }

    @Test func aFingerWithoutAFolderIsAnErrorNamingIt() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let sensor = try SimulatedImageSensor(imagesDirectory: scratch.path)
        sensor.touch("nobody")
        let error = expectThrows(ImageSensorError.self) { try sensor.capture() }
        #expect(error == .noImages(folder: scratch.path + "/nobody"))
        #expect(error?.description.contains(scratch.path + "/nobody") == true)
        // The touch is over even though its capture failed.
        #expect(sensor.status.finger == nil)
        // A name is a folder under DIR, not a way out of it.
        try FingerImageFolder.write(finger: "outside", captures: 1, directory: scratch.path)
        let nested = try SimulatedImageSensor(imagesDirectory: scratch.path + "/outside")
        nested.place("../outside")
        #expect(expectThrows(ImageSensorError.self) { try nested.capture() } == .noImages(folder: scratch.path + "/outside/../outside"))
        // An empty folder is no better.
        try Fixture.makeFolder(scratch.path + "/empty")
        sensor.place("empty")
        #expect(expectThrows(ImageSensorError.self) { try sensor.capture() } == .noImages(folder: scratch.path + "/empty"))
    }

    @Test func aMissingImagesDirectoryIsRefusedAtOnce() {
        let error = expectThrows(ImageSensorError.self) { try SimulatedImageSensor(imagesDirectory: "/nonexistent/fpmod-images") }
        #expect(error == .noImages(folder: "/nonexistent/fpmod-images"))
    }

    @Test func aFileThatIsNoPNGIsAnErrorNamingIt() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        try Fixture.makeFolder(scratch.path + "/hank")
        let path = scratch.path + "/hank/broken.png"
        try Fixture.write("not a png", to: path)
        let sensor = try SimulatedImageSensor(imagesDirectory: scratch.path)
        sensor.place("hank")
        let error = expectThrows(ImageSensorError.self) { try sensor.capture() }
        guard case .unreadableImage(path, _)? = error else { Issue.record("got \(String(describing: error))"); return }
    }
}
