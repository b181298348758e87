import Foundation
import Glibc
import ImageSensor
import ImageSensorSimulator
import Imaging
import Posix
import Testing
import TestSupport

/// `fpmod sim --profile fpc1020` as its own process: fingers placed on its control socket,
/// the sensor used from this process through its link (`SocketImageSensor`), stopped by SIGTERM.
@Suite(.serialized) struct SensorSimProcessTests {
    /// The simulator, started and waited for until both sockets exist.
    final class Simulator {
        let process: LoggedProcess
        let control: String
        let link: String

        init(_ cli: CLI, extra: [String] = []) throws {
            control = cli.directory + "/sensor.ctl"
            link = cli.directory + "/sensor.link"
            process = try LoggedProcess(cli, arguments: ["sim", "--profile", "fpc1020", "--control", control, "--link", link] + extra,
                                        logPath: cli.directory + "/sim.log")
            let deadline = ContinuousClock.now + .seconds(60)
            while !(FileSystem.exists(control) && FileSystem.exists(link)) && process.isRunning && ContinuousClock.now < deadline {
                usleep(20_000)
            }
        }

        /// The sensor through the link; when that fails, the simulator's log says why.
        func sensor() throws -> SocketImageSensor {
            do { return try SocketImageSensor(path: link) } catch {
                Issue.record("the simulator's log:\n\(process.log)")
                throw error
            }
        }

        func say(_ line: String) throws -> String {
            let connection = try UnixConnection.connect(path: control)
            defer { connection.close() }
            try connection.send(line: line)
            return try #require(try connection.readLine(deadline: .now + .seconds(10)))
        }

        func terminate() -> Int32 {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            return process.process.terminationStatus
        }
    }

    @Test func capturesOfFilesCrossTheLinkAndSIGTERMEndsItCleanly() throws {
        let cli = CLI()
        let images = cli.directory + "/images"
        try FileSystem.makeDirectory(images, mode: 0o755)
        let files = try FingerImageFolder.write(finger: "alice-right-index", captures: 3, directory: images)
        let simulator = try Simulator(cli, extra: ["--images", images])
        let sensor = try simulator.sensor()
        #expect(sensor.identity.model == "FPC1020A (simulated)", "\(simulator.process.log)")
        #expect(sensor.identity.connection.contains(images))
        #expect(try !sensor.waitForFinger(deadline: .now + .milliseconds(50)))

        #expect(try simulator.say("touch alice-right-index") == "ok touch alice-right-index ×1")
        #expect(try sensor.waitForFinger(deadline: .now + .seconds(30)))
        let (image, _) = try sensor.captureFinger()
        let first = try PNGFile.read(files[0]).pixels
        #expect(image.pixels == first)
        // The touch is over after its capture.
        #expect(try !sensor.waitForFinger(deadline: .now + .milliseconds(50)))
        #expect(try simulator.say("place alice-right-index") == "ok placed alice-right-index")
        let second = try PNGFile.read(files[1]).pixels
        #expect(try sensor.captureFinger().image.pixels == second)
        #expect(try simulator.say("status").contains("\"finger\":\"alice-right-index\""))
        // A finger without a folder is an error naming it, not a crash of the simulator.
        #expect(try simulator.say("place mallory") == "ok placed mallory")
        #expect(expectThrows(ImageSensorError.self) { try sensor.capture() } == .noImages(folder: images + "/mallory"))

        #expect(simulator.terminate() == 0, "\(simulator.process.log)")
        #expect(!FileSystem.exists(simulator.control) && !FileSystem.exists(simulator.link))
        let gone = expectThrows(ImageSensorError.self) { try sensor.capture() }
        guard case .sensorLink(simulator.link, _)? = gone else { Issue.record("got \(String(describing: gone))"); return }
    }

    @Test func stdoutNamesTheControlSocketThenTheLink() throws {
        let cli = CLI()
        let simulator = try Simulator(cli, extra: ["--finger", "bob"])
        let sensor = try simulator.sensor()
        // --finger keeps bob down from the start; generated fingers without --images.
        #expect(try sensor.waitForFinger(deadline: .now))
        #expect(FingerCoverage().evaluate(try sensor.capture()).holdsFinger)
        #expect(sensor.identity.connection.contains("generated fingers"))
        #expect(simulator.terminate() == 0)
        let lines = simulator.process.log.split(separator: "\n").map(String.init)
        #expect(lines.prefix(2) == [simulator.control, simulator.link][...], "\(lines)")
    }

    @Test func withoutControlASocketInTMPDIRIsPrinted() throws {
        let cli = CLI()
        cli.environment["TMPDIR"] = cli.directory
        let process = try LoggedProcess(cli, arguments: ["sim", "--profile", "fpc1020"], logPath: cli.directory + "/sim.log")
        let expected = cli.directory + "/fpmod-sensor-sim-\(process.processIdentifier).control"
        for _ in 0..<500 where !FileSystem.exists(expected) && process.isRunning { usleep(20_000) }
        let connection = try UnixConnection.connect(path: expected)
        try connection.send(line: "place ida")
        #expect(try connection.readLine(deadline: .now + .seconds(10)) == "ok placed ida")
        connection.close()
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.process.terminationStatus == 0)
        #expect(process.log.hasPrefix(expected + "\n"), "\(process.log)")
        #expect(!FileSystem.exists(expected))
    }

    @Test func aMissingImagesFolderIsAConfigError() throws {
        let cli = CLI()
        let result = try cli.run(["sim", "--profile", "fpc1020", "--images", cli.directory + "/none"])
        #expect(result.status == 78)
        #expect(result.stderr.contains(cli.directory + "/none"))
        let module = try cli.run(["sim", "--profile", "r307", "--images", cli.directory])
        #expect(module.status == 64)
        #expect(module.stderr.contains("--profile fpc1020"))
        let state = try cli.run(["sim", "--profile", "fpc1020", "--state", cli.directory + "/x"])
        #expect(state.status == 64)
    }
}
