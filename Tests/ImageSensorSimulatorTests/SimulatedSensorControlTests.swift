import Foundation
import ImageSensor
import Imaging
import Posix
import Testing
@testable import ImageSensorSimulator
import TestSupport

/// The control socket, through a real Unix socket: the module simulator's finger verbs, JSON
/// status, extra verbs for the GPIO simulation, and clean stops.
@Suite struct SimulatedSensorControlTests {
    /// One reply line per line sent.
    struct Client {
        let connection: UnixConnection
        init(_ path: String) throws { connection = try UnixConnection.connect(path: path) }
        func say(_ line: String) throws -> String {
            try connection.send(line: line)
            return try #require(try connection.readLine(deadline: .now + .seconds(10)))
        }
    }

    @Test func fingerVerbsMoveTheSensorsFinger() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let sensor = try SimulatedImageSensor()
        let control = try SimulatedSensorControl(sensor: sensor, path: scratch.path + "/control")
        defer { control.stop() }
        let client = try Client(control.path)
        #expect(try client.say("place alice") == "ok placed alice")
        #expect(try sensor.waitForFinger(deadline: .now))
        #expect(FingerCoverage().evaluate(try sensor.capture()).holdsFinger)
        #expect(try client.say("lift") == "ok lifted")
        #expect(try !sensor.waitForFinger(deadline: .now))
        #expect(try client.say("touch bob") == "ok touch bob ×1")
        let status = try JSONDecoder().decode(SimulatedSensorStatus.self, from: Data(try client.say("status").utf8))
        #expect(status.finger == "bob" && status.liftsAfterCapture && status.captures == 1)
        #expect(status.model == "FPC1020A (simulated)")
        _ = try sensor.capture()
        #expect(try client.say("auto-touch carol") == "ok auto-touch carol")
        #expect(sensor.autoTouch == "carol")
        #expect(try client.say("auto-touch off") == "ok auto-touch off")
        #expect(sensor.autoTouch == nil)
    }

    @Test func badLinesAreRefusedWithTheUsage() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let control = try SimulatedSensorControl(sensor: try SimulatedImageSensor(), path: scratch.path + "/control")
        let client = try Client(control.path)
        #expect(try client.say("bogus") == "error: unknown command \"bogus\"; " + SensorControlCommand.usage)
        #expect(try client.say("place") == "error: usage: place NAME (one finger name, no spaces)")
        #expect(try client.say("lift now") == "error: usage: lift (no arguments)")
        // The connection survives refusals, and blank lines get no reply.
        try client.connection.send(line: "   ")
        #expect(try client.say("lift") == "ok lifted")
    }

    @Test func extraVerbsGoToTheHookBeforeTheyAreRefused() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let control = try SimulatedSensorControl(sensor: try SimulatedImageSensor(), path: scratch.path + "/control")
        control.acceptExtraCommands(usage: "GPIO commands: exit") { line in line == "exit" ? "ok exit button pressed" : nil }
        let client = try Client(control.path)
        #expect(try client.say("exit") == "ok exit button pressed")
        #expect(try client.say("door open") == "error: unknown command \"door\"; \(SensorControlCommand.usage); GPIO commands: exit")
        // The sensor's own verbs are still its own.
        #expect(try client.say("lift") == "ok lifted")
        #expect(control.perform(line: "exit") == "ok exit button pressed")
    }

    @Test func severalClientsAreServedAndStopRemovesTheSocket() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let sensor = try SimulatedImageSensor()
        let control = try SimulatedSensorControl(sensor: sensor, path: scratch.path + "/control")
        let first = try Client(control.path), second = try Client(control.path)
        #expect(try first.say("place dave") == "ok placed dave")
        #expect(try second.say("lift") == "ok lifted")
        first.connection.close()
        #expect(try second.say("place erin") == "ok placed erin")
        #expect(sensor.status.finger == "erin")
        control.stop()
        #expect(!FileSystem.exists(control.path))
        #expect(throws: Errno.self) { try UnixConnection.connect(path: control.path) }
        control.stop()
    }

    @Test func aSocketInUseNamesItsHolder() throws {
        let scratch = ScratchFolder()
        defer { scratch.remove() }
        let sensor = try SimulatedImageSensor()
        let control = try SimulatedSensorControl(sensor: sensor, path: scratch.path + "/control")
        defer { control.stop() }
        let error = expectThrows(SensorSocketError.self) { try SimulatedSensorControl(sensor: sensor, path: control.path) }
        #expect(error?.errno == .addressInUse)
        #expect(error?.holder?.contains("pid \(getpid())") == true)
        #expect(error?.description.contains("stop that process first") == true)
    }
}
