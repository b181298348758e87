import Foundation
import ImageSensor
import Imaging
import Posix
import Testing
@testable import ImageSensorSimulator
import TestSupport

/// A simulated sensor served on a real Unix socket and used through `SocketImageSensor`, as
/// another process would: identity, waits, captures and errors cross the link unchanged.
@Suite struct SensorLinkTests {
    @Test func theClientSeesTheSensorsIdentityAndImages() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let sensor = try SimulatedImageSensor(seed: 5)
        let link = try SimulatedSensorLink(sensor: sensor, path: scratch.path + "/link")
        defer { link.stop() }
        let client = try SocketImageSensor(path: link.path)
        #expect(client.identity == sensor.identity)
        try client.reset()
        #expect(try !client.waitForFinger(deadline: .now + .milliseconds(20)))
        #expect(!FingerCoverage().evaluate(try client.capture()).holdsFinger)
        sensor.place("alice")
        #expect(try client.waitForFinger(deadline: .now + .seconds(30)))
        // The same impressions as a sensor of the same seed gives in this process.
        let reference = try SimulatedImageSensor(seed: 5)
        reference.place("alice")
        #expect(try client.capture() == reference.capture())
        #expect(try client.captureFinger().image == reference.capture())
    }

    @Test func aWaitEndsWhenTheFingerIsPlacedMeanwhile() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let sensor = try SimulatedImageSensor()
        let link = try SimulatedSensorLink(sensor: sensor, path: scratch.path + "/link")
        let control = try SimulatedSensorControl(sensor: sensor, path: scratch.path + "/control")
        defer { link.stop(); control.stop() }
        let client = try SocketImageSensor(path: link.path)
        let placer = Thread {
            usleep(200_000)
            _ = control.perform(line: "touch bob")
        }
        placer.start()
        let deadline = ContinuousClock.now + .seconds(60)
        #expect(try client.waitForFinger(deadline: deadline))
        // Woken by the touch, not by the far deadline.
        #expect(ContinuousClock.now < deadline)
        #expect(FingerCoverage().evaluate(try client.capture()).holdsFinger)
        #expect(sensor.status.finger == nil)
    }

    @Test func autoTouchWorksThroughTheLink() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let sensor = try SimulatedImageSensor()
        sensor.autoTouch = "carol"
        let link = try SimulatedSensorLink(sensor: sensor, path: scratch.path + "/link")
        defer { link.stop() }
        let client = try SocketImageSensor(path: link.path)
        for _ in 0..<2 {
            #expect(try client.waitForFinger(deadline: .now + .seconds(30)))
            _ = try client.captureFinger()
        }
    }

    @Test func sensorErrorsArriveTyped() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let sensor = try SimulatedImageSensor(imagesDirectory: scratch.path)
        let link = try SimulatedSensorLink(sensor: sensor, path: scratch.path + "/link")
        defer { link.stop() }
        let client = try SocketImageSensor(path: link.path)
        sensor.place("nobody")
        #expect(expectThrows(ImageSensorError.self) { try client.capture() } == .noImages(folder: scratch.path + "/nobody"))
        try Fixture.makeFolder(scratch.path + "/broken")
        try Fixture.write("no png", to: scratch.path + "/broken/a.png")
        sensor.place("broken")
        let error = expectThrows(ImageSensorError.self) { try client.capture() }
        guard case .unreadableImage(scratch.path + "/broken/a.png", let reason)? = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(!reason.isEmpty)
        // The connection is still good after errors.
        sensor.lift()
        #expect(try !client.waitForFinger(deadline: .now))
    }

    @Test func aGoneSimulatorIsALinkErrorNamingThePath() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let path = scratch.path + "/link"
        let refused = expectThrows(ImageSensorError.self) { try SocketImageSensor(path: path) }
        guard case .sensorLink(path, let problem)? = refused else { Issue.record("got \(String(describing: refused))"); return }
        #expect(problem.contains("is the simulator running?"))
        #expect(refused?.description.contains("fpmod sim --profile fpc1020 --link \(path)") == true)

        let link = try SimulatedSensorLink(sensor: try SimulatedImageSensor(), path: path)
        let client = try SocketImageSensor(path: path)
        link.stop()
        let closed = expectThrows(ImageSensorError.self) { try client.capture() }
        guard case .sensorLink(path, _)? = closed else { Issue.record("got \(String(describing: closed))"); return }
    }

    @Test func somethingElseOnTheSocketIsNoSensor() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        // A control socket is a line protocol too, but answers no identity.
        let control = try SimulatedSensorControl(sensor: try SimulatedImageSensor(), path: scratch.path + "/control")
        defer { control.stop() }
        let error = expectThrows(ImageSensorError.self) { try SocketImageSensor(path: control.path) }
        guard case .sensorLink(control.path, let problem)? = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(problem.contains("not a sensor's identity"))
    }
}
